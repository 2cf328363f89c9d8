#pragma once
// Engine: the one owner of the job lifecycle. It accepts jobs, keeps the
// queue, places jobs on nodes (through route::place), drives executors, and
// records every status change with its events in the store.
//
// Invariants:
// - A job's status only changes through model::can_transition, and only here.
// - Every status change is committed together with its event(s).
// - A submitted job is committed before submit() returns.
// - A node's gpus_free equals gpu_count minus the GPUs of its placed jobs.
// - Every non-terminal job is owned: queued (in the queue) or placed (an
//   executor runs it). start() restores this after a restart.
//
// Scheduling: one thread ("engine loop") places queued jobs whenever
// something changes (submit, end of a run, cancel), in priority order (high,
// balanced, low) then first come first served. A pass routes through the
// node pool's index (route::FleetIndex), does not route again a route key
// that already failed in the pass, and stops once no node has a free GPU, so
// a long queue on a full fleet costs little per pass. A job that cannot be placed
// now waits in `queued` with delay_reason CAPACITY_UNAVAILABLE and one
// job.capacity_waiting event. No starvation: once later jobs have been
// placed k_max_bypasses (3) times on nodes a waiting job could use, those
// nodes are held for it (no job behind it is placed there) until it runs.
// Delays: a job in a phase before its workload has one clock timer at
// phase start + delay_threshold_ms (cancelled when the phase or the job
// ends); when it fires the job gets delayed_start, a delay reason unless
// capacity already explains the wait, and a job.delayed event.
// Callbacks: a job that names a callback URL gets its outbox row (the
// frozen body) in the same commit as its terminal transition; the callback
// sender (a few workers, capped per receiver) delivers it with retries and
// records every attempt as a job.callback_delivered / job.callback_failed
// event plus the job's `callback` state, never its status.
// A placed job is `assigned`; the executor's first step makes it `starting`
// and its job.running step `running`, so each status change is committed
// with the event that caused it.
//
// Thread-safe: every public method may be called from any thread.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "jgrid/engine/callback_transport.hpp"
#include "jgrid/engine/fleet_history.hpp"
#include "jgrid/exec/executor.hpp"
#include "jgrid/exec/fleet.hpp"
#include "jgrid/exec/image_lookup.hpp"
#include "jgrid/model/job.hpp"
#include "jgrid/model/job_input.hpp"
#include "jgrid/model/node.hpp"
#include "jgrid/screen/screen.hpp"
#include "jgrid/store/store.hpp"
#include "jgrid/util/clock.hpp"
#include "jgrid/util/result.hpp"

namespace jgrid::engine {

struct EngineOptions {
  std::filesystem::path data_dir;        // job workspaces and uploads live here
  int max_attempts = 2;                  // placements per job before NODE_LOST is final
  std::int64_t delay_threshold_ms = 5 * 60 * 1000;
  std::int64_t max_log_bytes = 64LL * 1024 * 1024;
  // Workload output queued for the store, in bytes, past which the executor
  // thread that queues more waits for the store to catch up (back-pressure:
  // a container printing faster than the disk takes waits, not the memory).
  std::int64_t max_log_backlog_bytes = 8LL * 1024 * 1024;
  std::int64_t upload_ttl_ms = 60 * 60 * 1000;
  // Callbacks (docs/api.md §5). Without a transport no sender runs and
  // deliveries wait in the outbox for a process that has one.
  std::shared_ptr<CallbackTransport> callback_transport;
  std::string callback_secret;           // signs callbacks of jobs without callback_auth_token
  std::int64_t callback_backoff_base_ms = 1000;  // clock ms before the 2nd attempt (doubles after)
  // true: submit() returns only after the job is durable in the store (the
  // API's promise before a 202). false: the job is queued to the store and
  // scheduled at once; for batch simulation, whose store dies with it.
  bool durable_submits = true;
  // false: event_digest() stays "" (the events still carry their ordinal);
  // for batch simulation, which digests the event stream on its store's
  // thread instead of the clock's.
  bool keep_event_digest = true;
  // Metadata of images the fleet's catalog does not list (registries);
  // null: such images are screened by name only. submit and estimate wait at
  // most image_lookup_bound for it; a job accepted past the bound waits,
  // queued, for the lookup to end and is screened again before it runs.
  std::shared_ptr<exec::ImageLookup> image_lookup;
  std::chrono::milliseconds image_lookup_bound{2000};
};

struct SubmitRequest {
  model::JobSpec spec;
  std::string workspace = "local";
  std::string idempotency_key;           // "" none (header or metadata.client_request_id)
  std::string request_hash;              // identifies the body for idempotency conflicts
};

// A submit's first half (Engine::prepare): the request with its screening
// done and rendered. It depends only on the request and the fleet's image
// catalog (or the registry lookup), never on the engine's changing state,
// so it may be made on any thread and ahead of time.
struct PreparedSubmit {
  SubmitRequest request;
  screen::Screening screening;
  std::string screening_json;  // the job document's `screening` member
  bool image_pending = false;  // the registry lookup of its image outlived its bound
  // The job.screened event's message, level and data.
  std::string screened_message, screened_level;
  nlohmann::json screened_data;
  // The job.submitted event's data, and the job's route key (route::route_key).
  nlohmann::json submitted_data;
  std::string route_key;
};

struct SubmitResult {
  model::Job job;
  bool replayed = false;                 // true: an earlier submit with the same key
};

// What reset_simulation did.
struct ResetReport {
  std::size_t cancelled_jobs = 0;  // live jobs stopped first
  store::DeletedRows deleted;      // then every stored job and input
};

// Who completes an upload and how they proved it.
struct InputCompletion {
  std::string input_id;
  // The caller's workspace when an API key of it (any caller under --auth
  // off) authorised the request; "" when nothing but the token does.
  std::string key_workspace;
  std::string token;  // the upload token presented; "" for none
  std::optional<std::int64_t> declared_size;
};

class Engine {
 public:
  Engine(store::Store& store, std::shared_ptr<util::Clock> clock, exec::Fleet fleet,
         exec::ExecutorRegistry executors, EngineOptions options);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Recovers jobs left in flight by a previous process (requeue with
  // job.retrying, or fail NODE_LOST past max_attempts), then starts the
  // scheduler. Error STORE_WRITE_FAILED.
  Status start();
  // Stops the scheduler and executors. Running jobs stay non-terminal in the
  // store, to be recovered by the next start(). Idempotent.
  void stop();
  bool ready() const;

  // Validated spec in; job out, committed. Screening runs first (docs/rocm.md §2,
  // with the fleet's image catalog as image metadata); the job records its
  // checks and warnings and a job.screened event (source "screener", level
  // "warning" when a rule warned), committed with job.submitted. Routing
  // follows the screener's intent (docs/rocm.md §3).
  // Errors, none of which stores anything: SCREENING_REJECTED ("screening
  // blocked the workload: image.cuda_name", details {blocked_checks: [rule
  // ids], checks: [Check], fixes: [text]}), CONFLICT (idempotency key reused
  // with another body), JOB_INPUT_NOT_FOUND / JOB_INPUT_NOT_READY,
  // CAPACITY_UNAVAILABLE (no node of the whole fleet could ever run it, e.g.
  // AMD intent without AMD nodes, or a CUDA-only image without NVIDIA nodes;
  // the message says what to change; details.retry_after_seconds),
  // STORE_WRITE_FAILED.
  Result<SubmitResult> submit(SubmitRequest request);
  // submit() in two halves: prepare() screens (error SCREENING_REJECTED) and
  // is thread-safe, reading nothing that changes; submit_prepared() does the
  // rest, with the other errors above. A trace feed prepares on a thread of
  // its own while the virtual clock's thread only commits.
  Result<PreparedSubmit> prepare(SubmitRequest request) const;
  Result<SubmitResult> submit_prepared(PreparedSubmit prepared);

  // Cancels a live job: the executor is stopped and the job is `cancelled`
  // when this returns. Errors: NOT_FOUND (unknown or other workspace),
  // CONFLICT (already terminal).
  Result<model::Job> cancel(const std::string& job_id, const std::string& workspace, const std::string& reason);

  // docs/api.md §2.1 body for `spec` (read-only; nothing stored): the screening,
  // the classification from the screener's intent, and routing.candidates
  // listing every node with its reasons. A blocked screening gives
  // can_submit false and unavailable_code SCREENING_REJECTED.
  model::Json estimate(const model::JobSpec& spec, model::Framing framing) const;

  std::vector<model::Node> nodes() const;
  // Up to `limit` nodes from position `offset` in fleet order (empty past
  // the end), and the fleet's size: pages of a large fleet without copying
  // all of it.
  std::vector<model::Node> nodes(std::size_t offset, std::size_t limit) const;
  std::size_t node_count() const;
  std::optional<model::Node> node(const std::string& node_id) const;

  // Upload flow (docs/api.md, "Job inputs"). An upload slot lives until its
  // expires_ms (EngineOptions::upload_ttl_ms after creation); a slot still
  // pending then is refused (FORBIDDEN) and swept with its bytes.
  Result<model::JobInput> create_input(const std::string& workspace, const std::string& filename,
                                       const std::string& content_type, const std::string& kind);
  // The api streamed the bytes into `received` (a file under the data dir,
  // synced); this moves it into place as the input's blob, syncs the
  // directory and records size and sha256, all while no complete_input of
  // the same input can run: bytes never change under a ready input.
  // Errors: NOT_FOUND, CONFLICT (already ready), FORBIDDEN (slot expired),
  // IO_ERROR. `received` is gone on return either way.
  // Whether bytes may still be uploaded for `input`: CONFLICT once it is
  // ready, FORBIDDEN once its slot expired (by the engine's clock).
  Status check_upload_slot(const model::JobInput& input) const;
  Result<model::JobInput> record_upload(const std::string& input_id, const std::filesystem::path& received,
                                        std::int64_t size_bytes, const std::string& sha256);
  // Errors: NOT_FOUND (also another workspace's input), FORBIDDEN (wrong
  // token, or neither token nor key, or slot expired), JOB_INPUT_NOT_READY
  // (no bytes yet), INVALID_REQUEST (declared size disagrees).
  Result<model::JobInput> complete_input(const InputCompletion& completion);
  // Deletes every upload slot still pending past its expiry, row and bytes.
  // The engine loop runs it once a minute; callable any time.
  void sweep_expired_inputs();

  // Simulation controls (docs/simulation.md §3, §4).
  // Changes a node by hand: "drain" (no new jobs; running ones finish),
  // "undrain" / "online" (takes jobs again), "offline" (no new jobs, and
  // its running jobs are lost: requeued with job.retrying, or failed
  // NODE_LOST past max_attempts). Errors NOT_FOUND (unknown node id or
  // name), INVALID_REQUEST (unknown operation).
  Result<model::Node> set_node_status(const std::string& node, const std::string& operation);
  // The fault rules of the simulated executor; nullptr when there is none.
  exec::FaultBook* faults() const;
  // Returns the server to an empty simulation (docs/simulation.md §4, for test
  // isolation). Cancels every live job (reason "simulation reset"), so that
  // their executors are stopped before anything is deleted; clears the
  // fault rules, brings every simulated node back online, forgets pulled
  // images and restarts the event digest; then deletes every stored job
  // with its events, logs, artifacts, callback outbox rows and idempotency
  // keys, every input, and their files under the data dir. A job id from
  // before is unknown afterwards, also after a restart. Submits racing with
  // a reset are cancelled and deleted with the rest. Errors
  // STORE_WRITE_FAILED (nothing deleted) and IO_ERROR (rows deleted, some
  // files left); the cancels and node changes have happened either way.
  Result<ResetReport> reset_simulation();
  // The event log digest (see Recorder) and how many events it covers.
  std::string event_digest() const;
  std::int64_t digested_events() const;
  // Moves a virtual clock forward by `ms` (no effect on a real clock).
  void advance_clock(std::int64_t ms);
  // Virtual clock: returns once the clock cannot move by itself (no timer
  // callback or scheduling pass running or pending, and no timer due or the
  // clock held by the caller's side), so a request answered after it leaves
  // the next one to land at a virtual time that depends only on the
  // requests. Returns at once on a real clock; gives up after 30 s.
  void settle() const;
  // How many jobs are not terminal.
  std::size_t live_jobs() const;
  // The fleet's level over the last hours (FleetHistory::read): queued jobs,
  // and per pool GPUs in use and GPUs not offline. reset_simulation()
  // forgets the samples before it.
  FleetSeries fleet_history() const;

  const EngineOptions& options() const;
  const util::Clock& clock() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace jgrid::engine
