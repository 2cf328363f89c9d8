#pragma once
// The engine's state and the functions that change it, split over the
// files of src/engine/ by concern (submit, scheduler, launch, run_sink,
// cancel, recovery, delays, inputs, estimate).
//
// Locking: one mutex (m_mutex) guards every member below it. Functions named
// *_locked require it held. Store writes of job changes are queued with
// commit_async while it is held, so batches reach the store in the order
// their event seqs were given out and a job's document is never overwritten
// by an older copy; callers that must return durable state call
// m_store.flush() after releasing it. Executors are never called with the
// mutex held (they call back into the sink from their own threads).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "jgrid/engine/engine.hpp"
#include "jgrid/engine/fleet_history.hpp"
#include "jgrid/route/placer.hpp"
#include "callback_sender.hpp"
#include "job_queue.hpp"
#include "live_job.hpp"
#include "node_pool.hpp"
#include "recorder.hpp"
#include "screening.hpp"
#include "workspace.hpp"

namespace jgrid::engine {

// A job that has been held back by this many later jobs placed on nodes it
// waits for reserves those nodes: nothing behind it in the queue is placed
// there until it is.
inline constexpr int k_max_bypasses = 3;

// The working state of one scheduling pass (scheduler.cpp). Within a pass
// the free capacity only shrinks and held classes only grow, so a route key
// that failed once fails for every later job with the same key.
struct SchedulePass {
  std::set<std::uint32_t> held;  // node classes held for starving jobs
  // Route keys that failed this pass; the result once routed (nullopt when
  // skipped because no node of the vendor had enough free GPUs).
  std::map<std::string, std::optional<route::RouteResult>> failed;
  std::vector<LiveJob*> heads;   // the first waiting job of each failed key
  store::WriteBatch batch;
  std::vector<std::string> launches;
};

struct Engine::Impl final : exec::RunSink, exec::NodeSink {
  Impl(store::Store& store, std::shared_ptr<util::Clock> clock, exec::Fleet fleet, exec::ExecutorRegistry executors,
       EngineOptions options);

  // recovery.cpp
  Status start();
  void stop();
  void adopt_locked(model::Job job, store::WriteBatch& batch, std::vector<std::string>& resumes);

  // resume.cpp: runs an earlier process left going (executor reattach()).
  bool hold_for_resume_locked(LiveJob& live);
  void resume(const std::string& job_id);
  void requeue_or_fail_locked(LiveJob& live, const std::string& reason, store::WriteBatch& batch);

  // submit.cpp
  Result<SubmitResult> submit(SubmitRequest request);
  Result<PreparedSubmit> prepare(SubmitRequest request) const;
  Result<SubmitResult> submit_prepared(PreparedSubmit prepared);
  // Runs `submit_new` under the request's idempotency key (when it has one):
  // an earlier job with that key is returned instead, a concurrent one waited for.
  template <typename SubmitNew>
  Result<SubmitResult> under_key(const SubmitRequest& request, SubmitNew&& submit_new);
  Result<std::optional<model::Job>> claim_key(const SubmitRequest& request);
  void release_key(const SubmitRequest& request);
  Status check_inputs(const model::JobSpec& spec, const std::string& workspace) const;
  Result<SubmitResult> submit_new(PreparedSubmit& prepared);
  Result<model::Job> commit_new_job(model::Job job, PreparedSubmit& prepared, const route::RouteResult& route);

  // image_screening.cpp: metadata of images the fleet's catalog does not
  // list, from the image lookup (registries). A job accepted while its
  // lookup still ran is parked (queued, outside the queue) and screened
  // again when the lookup ends: never run unscreened.
  struct ImageRead {
    screen::ImageMetadata metadata;
    bool pending = false;  // the lookup outlived `bound`: metadata is the name only
  };
  ImageRead read_image(const std::string& image, std::chrono::milliseconds bound) const;
  screen::Screening screen_read(const model::JobSpec& spec, const ImageRead& read) const;
  void park_locked(LiveJob& live);
  void watch_image(const std::string& job_id, const std::string& image);  // without the mutex
  void image_read(const std::string& job_id);
  void reject_locked(LiveJob& live, const std::string& message, const std::string& rule, store::WriteBatch& batch);
  struct LookupGate;  // lookup threads reach the engine through it while it lives
  void open_lookup_gate();
  void close_lookup_gate();

  // scheduler.cpp
  void run_loop();
  std::vector<std::string> schedule_locked();
  JobQueue::Next visit_locked(LiveJob& live, SchedulePass& pass);
  void wait_locked(LiveJob& live, SchedulePass& pass, bool head);
  const route::RouteResult& why_waiting_locked(LiveJob& live, SchedulePass& pass);
  void note_fresh_locked(SchedulePass& pass);
  void assign_locked(LiveJob& live, route::RouteResult route, store::WriteBatch& batch);
  void note_waiting_locked(LiveJob& live, const route::RouteResult& route, store::WriteBatch& batch);

  // timed_pass.cpp: on a virtual clock the scheduling pass is a clock timer
  // due now, run on the timer thread (the engine loop only ticks).
  struct PassGate;  // the pass timer reaches the engine through it while it lives
  void open_pass_gate();
  void close_pass_gate();
  void arm_pass_locked();
  void disarm_pass_locked();
  void run_timed_pass();

  // launch.cpp
  void launch(const std::string& job_id);
  // What preparing a job's workspace reads of it (a copy of the whole job cost more).
  struct LaunchFiles {
    std::string job_id;
    util::Frozen<model::JobSpec> spec;
    int attempts = 0;
  };
  Result<std::vector<StagedInput>> staged_inputs(const LaunchFiles& files) const;
  Status prepare_files(const LaunchFiles& files, const exec::Executor* executor) const;
  void start_run(const std::string& job_id, std::shared_ptr<exec::Executor> executor, exec::RunRequest request);
  std::shared_ptr<exec::Executor> executor_for(const model::Job& job) const;

  // run_sink.cpp
  void step(const std::string& job_id, model::Phase phase, const std::string& event_type, const std::string& message,
            nlohmann::json data) override;
  void output(const std::string& job_id, const std::string& stream, const std::string& line) override;
  void output_lines(const std::string& job_id, const std::vector<exec::LogLine>& lines) override;
  void image_digest(const std::string& job_id, const std::string& digest) override;
  void finished(const std::string& job_id, const exec::RunOutcome& outcome) override;
  LiveJob* sink_target_locked(const std::string& job_id);
  // Queues output lines; true when the caller must then wait for the store.
  bool queue_output_locked(store::WriteBatch batch);
  void end_run_locked(LiveJob& live, const exec::RunOutcome& outcome, store::WriteBatch& batch);
  void lose_run_locked(LiveJob& live, const exec::RunOutcome& outcome, store::WriteBatch& batch);

  // scheduler_holds.cpp
  void scheduler_job_id(const std::string& job_id, const std::string& id) override;
  void held(const std::string& job_id, const std::string& delay_code, const std::string& message,
            nlohmann::json data) override;
  // A held job (held(): `queued` while launched) that moves on: back to
  // assigned, its delay gone. Nothing for any other job.
  void release_hold_locked(LiveJob& live);
  void nodes_observed(const std::vector<exec::NodeObservation>& observations) override;

  // sim_control.cpp
  Result<model::Node> set_node_status(const std::string& node_id, const std::string& operation);
  void lose_jobs_on(const std::string& node_id, const std::string& reason);
  Result<ResetReport> reset();
  void settle() const;
  bool busy() const;
  std::size_t cancel_live_jobs(const std::string& reason);
  void reset_executors();
  Result<store::DeletedRows> delete_jobs_locked();

  // cancel.cpp
  Result<model::Job> cancel(const std::string& job_id, const std::string& workspace, const std::string& reason);
  Result<model::Job> cancel_stored(const std::string& job_id, const std::string& workspace);

  // delays.cpp
  void tick_locked();
  // Makes sure a delay timer is pending for the job's current phase (one
  // pending from an earlier phase is kept: it is due no later and re-arms
  // itself when it fires); disarms it in a phase that cannot be delayed.
  // Call whenever the phase changes.
  void arm_delay_locked(LiveJob& live);
  void disarm_delay_locked(LiveJob& live);
  // When the job's current phase reaches its delay threshold; nullopt when
  // the phase cannot be delayed or its delay is already flagged.
  std::optional<std::int64_t> delay_due_ms(const LiveJob& live) const;
  // The delay timer of `job_id` fired (clock timer thread).
  void delay_due(const std::string& job_id, std::uint64_t token);
  void flag_delayed_locked(LiveJob& live, store::WriteBatch& batch);

  // inputs.cpp
  Result<model::JobInput> create_input(const std::string& workspace, const std::string& filename,
                                       const std::string& content_type, const std::string& kind);
  Status check_upload_slot(const model::JobInput& input) const;
  Result<model::JobInput> record_upload(const std::string& input_id, const std::filesystem::path& received,
                                        std::int64_t size_bytes, const std::string& sha256);
  Result<model::JobInput> complete_input(const InputCompletion& completion);
  // Deletes the expired slots still pending, rows and bytes (the engine loop, once a minute, without m_mutex).
  void sweep_expired_inputs();

  // callbacks.cpp
  void start_callbacks_locked();
  // Records one attempt of the sender (outbox row, job.callback, event); durable on return.
  void record_callback_attempt(const CallbackAttempt& attempt);

  // transitions.cpp: shared by every file above.
  std::int64_t now() const { return m_clock->now_ms(); }
  LiveJob* find_live_locked(const std::string& job_id);
  // Puts a live job in the queue and asks for a pass (which notes its wait
  // if it cannot be placed); arms its delay timer.
  void queue_job_locked(LiveJob& live);
  // The job's document changed now: updated_ms, and its tails count as written.
  void touch_locked(LiveJob& live);
  // touch_locked, and the document into `batch` when the store keeps job
  // states or the job has ended.
  void stage_locked(LiveJob& live, store::WriteBatch& batch);
  void enqueue_locked(store::WriteBatch batch);
  void wake_locked();
  // Ends a live job in `to` (failed when the table forbids `to` from where it
  // is): phase done, completed_ms, cost, the terminal event, GPUs released,
  // job written to `batch`, and `live` erased (the reference dies).
  void end_locked(LiveJob& live, model::JobStatus to, EventSpec terminal_event, store::WriteBatch& batch);
  // diagnosis.cpp: why a failed run failed, from its output and exit, or nullopt.
  std::optional<model::Diagnosis> diagnose_locked(const LiveJob& live, const exec::RunOutcome& outcome) const;
  // recovery.cpp: feeds a restarted job's stored output lines to its diagnosis scan.
  void rescan_output_locked(LiveJob& live);
  void fail_locked(LiveJob& live, const std::string& code, const std::string& summary, store::WriteBatch& batch,
                   const std::string& source = "scheduler");
  void release_gpus_locked(LiveJob& live);

  store::Store& m_store;
  std::shared_ptr<util::Clock> m_clock;
  exec::Fleet m_fleet;
  exec::ExecutorRegistry m_executors;
  EngineOptions m_options;
  std::atomic<bool> m_ready{false};

  mutable std::mutex m_mutex;
  std::condition_variable m_wake_cv;  // the engine loop waits on it
  bool m_wake = false;                // something changed: run a scheduling pass (real clocks)
  std::optional<util::Clock::TimerId> m_pass_timer;  // the pass due now (virtual clocks)
  bool m_stopping = false;
  bool m_started = false;
  std::thread m_loop;
  std::condition_variable m_keys_cv;  // a pending idempotency key was released
  std::set<std::string> m_pending_keys;
  LiveJobs m_live;
  JobQueue m_queue;
  std::vector<std::string> m_fresh;             // queued since the last pass
  NodePool m_pool;
  // Fed by m_queue and m_pool (Engine's constructor makes them watch it).
  FleetHistory m_history{*m_clock, m_fleet.nodes};
  Recorder m_recorder;
  std::set<std::string> m_launching;  // executor start() in progress
  std::condition_variable m_launched_cv;  // a start() in progress returned
  std::int64_t m_last_tail_write_ms = 0;        // steady ms of the last periodic tail write
  std::int64_t m_last_input_sweep_ms = 0;       // steady ms of the last sweep of expired upload slots
  std::mutex m_inputs_mutex;                    // an input's bytes and row change together, one writer at a time
  std::int64_t m_log_backlog = 0;               // output bytes queued since the store was last waited for
  std::unique_ptr<CallbackSender> m_sender;     // set by start() when there is a transport
  std::shared_ptr<LookupGate> m_lookup_gate;    // lookup threads reach the engine through it
  std::shared_ptr<PassGate> m_pass_gate;        // the pass timer reaches the engine through it
  DelayTimers m_delay_timers;  // last: closed (a firing one finished) before the rest goes
};

}  // namespace jgrid::engine
