#pragma once
// Job: one submitted workload and everything the grid learned about it.
// The spec (what was asked) never changes; the rest is state owned by the
// engine and persisted by the store as a document. Value type; the spec and
// the screening text are Frozen, so copies of a job share them.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "jgrid/model/diagnosis.hpp"
#include "jgrid/model/job_spec.hpp"
#include "jgrid/model/placement.hpp"
#include "jgrid/model/status.hpp"
#include "jgrid/util/frozen.hpp"

namespace jgrid::model {

struct Failure {
  std::string code;     // NONZERO_EXIT, TIMED_OUT, START_FAILED, NODE_LOST, IMAGE_PULL_FAILED, OOM, INTERNAL
  std::string summary;
};

struct DelayReason {
  std::string code;     // CAPACITY_UNAVAILABLE, RUNTIME_PREPARATION_DELAYED, …
  std::string message;
};

struct CallbackState {
  std::string url;
  std::string status = "pending";  // pending | delivered | failed
  int attempts = 0;
  std::string last_error;
};

inline constexpr std::string_view k_empty_screening = R"({"checks":[],"warnings":[]})";

struct Job {
  std::string id;                 // job_…
  std::string workspace = "local";
  util::Frozen<JobSpec> spec;
  JobStatus status = JobStatus::pending;
  Phase phase = Phase::queued;
  std::string status_reason;      // short machine-ish reason ("cancelled by user")
  std::string status_message;     // human sentence
  std::int64_t created_ms = 0, updated_ms = 0, queued_ms = 0;
  std::optional<std::int64_t> started_ms, completed_ms;
  std::int64_t phase_started_ms = 0, phase_updated_ms = 0;
  std::optional<Placement> placement;
  std::string image_digest;
  std::optional<int> exit_code;
  bool timed_out = false;
  int attempts = 0;               // placements made so far (1 on the first run)
  std::optional<Failure> failure;
  std::optional<Diagnosis> diagnosis;  // set with a failure the grid could explain
  std::optional<DelayReason> delay;
  bool delayed_start = false;
  std::string stdout_tail, stderr_tail;  // last 8 KiB of each
  bool log_truncated = false;
  bool command_spawned = false, inputs_prepared = false, scripts_prepared = false;
  bool artifacts_ready = false;
  double estimated_cost_usd = 0;
  std::optional<double> actual_cost_usd;
  // The screening result (docs/api.md §3 `screening`) as JSON text, written once
  // at submit and spliced as is into the stored document and the job object.
  util::Frozen<std::string> screening = std::string(k_empty_screening);
  std::optional<CallbackState> callback;
  std::string idempotency_key;
  std::string request_hash;       // sha256 of the request body when it has an idempotency key, else ""
};

inline constexpr std::size_t k_tail_bytes = 8 * 1024;

// Lossless storage form and back. Error INTERNAL when a stored document is
// not one this version wrote.
Json job_to_doc(const Job& job);
// job_to_doc without "spec" and "screening", the two members that never
// change after submit, so a writer can encode those once and splice them in.
Json job_state_to_doc(const Job& job);
// dump() of job_state_to_doc(job), without building the tree (the store
// writes a job at every step of its life); without the two tails unless
// `with_tails`. A test keeps the two in step.
std::string job_state_json(const Job& job, bool with_tails);
Result<Job> job_from_doc(const Json& doc);

enum class Framing { plain, envelope };

// docs/api.md §3 job object as JSON text: never contains null except exit_code /
// actual_cost_usd; environment values never appear; invalid UTF-8 is
// replaced; the screening text is spliced in as is. `now_ms` feeds
// wait_duration_seconds; `lifetime_spent_usd` (what the job's workspace has
// spent so far, the caller's to know) goes to
// account_billing.lifetime_total_spent_usd, rounded to cents.
std::string job_to_api_json(const Job& job, Framing framing, std::int64_t now_ms, double lifetime_spent_usd);
// The same object as a tree (for callers that add to it or pick from it).
Json job_to_api(const Job& job, Framing framing, std::int64_t now_ms, double lifetime_spent_usd);

// docs/api.md §2.3 list item (a subset of the job object).
Json job_to_list_item(const Job& job, Framing framing, std::int64_t now_ms);

// Appends `text` to a tail, keeping at most k_tail_bytes (cut at a line start when possible).
void append_tail(std::string& tail, const std::string& text);

}  // namespace jgrid::model
