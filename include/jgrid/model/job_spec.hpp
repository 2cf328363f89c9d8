#pragma once
// JobSpec: what a client asked for, validated. Decoded once from the request
// body (both route families, every alias of docs/api.md §2.2) and never changed
// afterwards. Plain value type; not synchronised.
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "jgrid/util/result.hpp"

namespace jgrid::model {

using Json = nlohmann::json;

enum class WorkloadType { inference, training, fine_tuning, batch };
std::string_view to_string(WorkloadType type);  // "fine-tuning" for fine_tuning
std::optional<WorkloadType> parse_workload_type(std::string_view text);  // accepts fine_tuning too

// Limits of a job request (docs/api.md §1.4, "Limits"). A value past one is
// refused by decode_job_spec, naming the field and the limit. The bounds on
// numbers keep every duration, once in clock milliseconds, far from int64's.
inline constexpr std::size_t k_max_command_bytes = 32 * 1024;
inline constexpr std::size_t k_max_env_keys = 256;
inline constexpr std::size_t k_max_env_bytes = 64 * 1024;
inline constexpr std::size_t k_max_name_chars = 200;
inline constexpr std::size_t k_max_labels = 64;
inline constexpr std::size_t k_max_labels_bytes = 16 * 1024;       // names and values
inline constexpr std::size_t k_max_metadata_bytes = 16 * 1024;     // serialized; callback.metadata too
inline constexpr std::size_t k_max_constraints_bytes = 16 * 1024;  // serialized, top-level aliases folded in
inline constexpr long long k_max_gpu_count = 4096;
inline constexpr double k_max_timeout_seconds = 2'592'000;     // 30 days
inline constexpr double k_max_size_gb = 1'048'576;             // min_vram_gb, model_size_gb, disk_gb (1 PiB)
inline constexpr double k_max_price_per_hour = 1'000'000;      // max_price_per_hour, USD
inline constexpr std::size_t k_max_list_items = 256;           // expected_artifacts, input_files, script_files
inline constexpr std::size_t k_max_path_bytes = 4096;          // one expected artifact
inline constexpr std::size_t k_max_url_bytes = 2048;           // callback URL
inline constexpr std::size_t k_max_auth_token_bytes = 4096;    // callback auth token
inline constexpr double k_max_sim_duration_s = 604'800;        // sim.duration_s, sim.stdout_every_s (a week)
inline constexpr std::string_view k_artifacts_root = "/workspace/artifacts/";

struct CallbackSpec {
  std::string url;
  std::string auth_token;
  Json metadata = Json::object();
};

struct JobSpec {
  std::string name;                       // empty: the engine generates one
  WorkloadType workload_type = WorkloadType::inference;
  std::string image;                      // empty only in estimate mode
  std::vector<std::string> command;       // command followed by args
  std::map<std::string, std::string> environment;
  std::string gpu_vendor;                 // lower-case "amd", "nvidia", "any" or "" (not stated)
  std::string runtime;                    // lower-case "rocm", "cuda", "auto" or ""
  std::string framework;                  // lower-case hint or ""
  std::map<std::string, std::string> labels;
  int gpu_count = 1;                      // 0 only when the client sent 0 (screening refuses it)
  bool requires_gpu = true;
  std::string gpu_type, gpu_class;
  std::optional<double> min_vram_gb, model_size_gb, disk_gb;
  Json constraints = Json::object();      // as sent, with top-level hints folded in
  std::string optimize_for = "balanced";  // balanced | cost | speed
  std::string priority = "balanced";      // low | balanced | high
  std::string latency_priority, cost_priority;
  std::optional<double> timeout_seconds;
  std::vector<std::string> input_files;   // input ids
  std::vector<std::string> script_files;  // input ids
  std::vector<std::string> expected_artifacts;  // absolute, under /workspace/artifacts/
  Json metadata = Json::object();
  std::optional<CallbackSpec> callback;
  Json echoed = Json::object();           // template, notes, *_credential_id: stored and echoed
  Json sim;                               // the `sim` object or null
};

enum class SpecMode { submit, estimate };

// Validates `body` against docs/api.md §2.2. Unknown fields are ignored. In
// estimate mode only workload_type is required. Errors are INVALID_REQUEST
// with a message naming the field and what was expected
// ("environment.FOO: expected a string"), and details {"field": "..."}.
Result<JobSpec> decode_job_spec(const Json& body, SpecMode mode);

// Lossless storage form of a spec (not the API form).
Json spec_to_doc(const JobSpec& spec);
// dump() of spec_to_doc(spec) (invalid UTF-8 replaced), without building the
// tree: the store encodes every new job's spec.
std::string spec_json(const JobSpec& spec);
Result<JobSpec> spec_from_doc(const Json& doc);

// "gpu_vendor" as the API reports it for a job: the stated vendor, or "amd"
// when runtime/framework imply it, else "any".
std::string effective_vendor(const JobSpec& spec);

}  // namespace jgrid::model
