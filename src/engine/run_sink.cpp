#include "impl.hpp"
#include "jgrid/util/json_members.hpp"
#include "jgrid/util/saturating.hpp"
#include "lifecycle.hpp"

namespace jgrid::engine {
namespace {

using model::JobStatus;

// Status moves an executor step implies: the first step means the run has
// begun (starting); job.running means the workload's command was spawned.
void apply_step(model::Job& job, model::Phase phase, const std::string& type, std::int64_t now) {
  if (job.status == JobStatus::assigned) (void)move_status(job, JobStatus::starting, now);
  if (type == "job.running" && move_status(job, JobStatus::running, now)) {
    job.started_ms = now;
    job.command_spawned = true;
    job.status_message = "running on " + job.placement->node_name;
  }
  if (type == "job.inputs_prepared") job.inputs_prepared = job.scripts_prepared = true;
  if (phase != job.phase && job.delay && job.delay->code != "CAPACITY_UNAVAILABLE") job.delay.reset();
  enter_phase(job, phase, now);
}

std::string failure_code(const exec::RunOutcome& outcome) {
  if (!outcome.failure_code.empty()) return outcome.failure_code;
  if (outcome.timed_out) return "TIMED_OUT";
  return outcome.exit_code ? "NONZERO_EXIT" : "START_FAILED";
}

std::string failure_summary(const exec::RunOutcome& outcome, const model::Job& job) {
  if (!outcome.message.empty()) return outcome.message;
  if (outcome.timed_out)
    return "workload exceeded its timeout of " + format_duration(util::seconds_to_ms_saturated(job.spec->timeout_seconds.value_or(0)));
  if (outcome.exit_code) return "workload exited with code " + std::to_string(*outcome.exit_code);
  return "workload did not start";
}

bool succeeded(const exec::RunOutcome& outcome) {
  return outcome.exit_code && *outcome.exit_code == 0 && outcome.failure_code.empty() && !outcome.timed_out;
}

// Only the lines of a batch within a tail's size from its end can be in
// the tail: the others are not copied there (a batch may be 10^4 lines).
void append_tails(model::Job& job, const std::vector<exec::LogLine>& lines) {
  for (const char* stream : {"stdout", "stderr"}) {
    std::size_t first = lines.size(), bytes = 0;
    while (first > 0 && bytes <= model::k_tail_bytes)
      if (lines[--first].stream == stream) bytes += lines[first].text.size() + 1;
    std::string text;
    for (std::size_t i = first; i < lines.size(); ++i)
      if (lines[i].stream == stream) text.append(lines[i].text).push_back('\n');
    if (!text.empty()) model::append_tail(stream == std::string("stderr") ? job.stderr_tail : job.stdout_tail, text);
  }
}

nlohmann::json artifact_names(const std::vector<model::Artifact>& artifacts) {
  nlohmann::json names = nlohmann::json::array();
  for (const auto& artifact : artifacts) names.push_back(artifact.filename);
  return names;
}

}  // namespace

// The live job an executor may still report on, or null: unknown or already
// terminal, being cancelled, or the engine is stopping.
LiveJob* Engine::Impl::sink_target_locked(const std::string& job_id) {
  LiveJob* live = find_live_locked(job_id);
  if (!live || live->cancelling || !live->launched || m_stopping) return nullptr;
  return live;
}

void Engine::Impl::step(const std::string& job_id, model::Phase phase, const std::string& event_type,
                        const std::string& message, nlohmann::json data) {
  std::lock_guard lock(m_mutex);
  LiveJob* live = sink_target_locked(job_id);
  if (!live) return;
  release_hold_locked(*live);
  model::Phase before = live->job.phase;
  apply_step(live->job, phase, event_type, now());
  if (live->job.phase != before) arm_delay_locked(*live);
  store::WriteBatch batch;
  m_recorder.event(*live, batch, {event_type, "executor", message, std::move(data)});
  stage_locked(*live, batch);
  enqueue_locked(std::move(batch));
}

// Log lines go to the store as they come; the job document (tails) is
// written at the next step, tick or end, not per line.
void Engine::Impl::output(const std::string& job_id, const std::string& stream, const std::string& line) {
  bool behind = false;
  {
    std::lock_guard lock(m_mutex);
    LiveJob* live = sink_target_locked(job_id);
    if (!live) return;
    store::WriteBatch batch;
    m_recorder.output(*live, batch, stream, line);
    model::append_tail(stream == "stderr" ? live->job.stderr_tail : live->job.stdout_tail, line + "\n");
    live->tails_dirty = true;
    behind = queue_output_locked(std::move(batch));
  }
  if (behind) m_store.flush();
}

// A batch of lines is one store batch: one transaction at most, and one
// wake of the live log followers.
void Engine::Impl::output_lines(const std::string& job_id, const std::vector<exec::LogLine>& lines) {
  bool behind = false;
  {
    std::lock_guard lock(m_mutex);
    LiveJob* live = sink_target_locked(job_id);
    if (!live || lines.empty()) return;
    store::WriteBatch batch;
    batch.logs.reserve(lines.size());
    for (const auto& line : lines) m_recorder.output(*live, batch, line.stream, line.text);
    append_tails(live->job, lines);
    live->tails_dirty = true;
    behind = queue_output_locked(std::move(batch));
  }
  if (behind) m_store.flush();
}

// Back-pressure: once max_log_backlog_bytes of output were queued since the
// store was last waited for, the executor thread that queued them waits
// for the store (without the mutex). A container printing faster than the
// disk takes it then waits with its output in its own log file or pipe,
// instead of the server's memory growing with the queue.
bool Engine::Impl::queue_output_locked(store::WriteBatch batch) {
  for (const auto& entry : batch.logs) m_log_backlog += static_cast<std::int64_t>(entry.message.size()) + 1;
  enqueue_locked(std::move(batch));
  if (m_log_backlog < m_options.max_log_backlog_bytes) return false;
  m_log_backlog = 0;
  return true;
}

void Engine::Impl::image_digest(const std::string& job_id, const std::string& digest) {
  std::lock_guard lock(m_mutex);
  LiveJob* live = sink_target_locked(job_id);
  if (!live) return;
  live->job.image_digest = digest;
  store::WriteBatch batch;
  stage_locked(*live, batch);
  enqueue_locked(std::move(batch));
}

// Artifacts are hashed without the mutex; the end of the run (artifacts,
// their event, the terminal status and event) is then one batch. A run the
// node cut short collects nothing: the node is gone with its files.
void Engine::Impl::finished(const std::string& job_id, const exec::RunOutcome& outcome) {
  std::unique_lock lock(m_mutex);
  LiveJob* live = sink_target_locked(job_id);
  if (!live) return;
  store::WriteBatch batch;
  if (!outcome.lost_reason.empty()) {
    lose_run_locked(*live, outcome, batch);
    return enqueue_locked(std::move(batch));
  }
  if (outcome.may_have_artifacts) {
    lock.unlock();
    batch.artifacts = collect_artifacts(m_options.data_dir, job_id, now());
    lock.lock();
    live = sink_target_locked(job_id);
    if (!live) return;
  }
  enter_phase(live->job, model::Phase::finalizing, now());
  live->job.artifacts_ready = true;
  const std::size_t count = batch.artifacts.size();
  m_recorder.event(*live, batch,
                   {"job.artifacts_collected", "executor",
                    "Collected " + std::to_string(count) + " artifact" + (count == 1 ? "" : "s"),
                    util::JsonMembers().add("count", count).add("names", artifact_names(batch.artifacts)).take()});
  end_run_locked(*live, outcome, batch);
  enqueue_locked(std::move(batch));
}

void Engine::Impl::end_run_locked(LiveJob& live, const exec::RunOutcome& outcome, store::WriteBatch& batch) {
  model::Job& job = live.job;
  job.exit_code = outcome.exit_code;
  job.timed_out = outcome.timed_out;
  nlohmann::json exit = outcome.exit_code ? nlohmann::json(*outcome.exit_code) : nlohmann::json(nullptr);
  if (outcome.rejected) {
    job.status_reason = "rejected: " + outcome.rejected_rule;
    job.status_message = outcome.message;
    end_locked(live, JobStatus::rejected,
               {"job.rejected", "screener", outcome.message, {{"rule", outcome.rejected_rule}}, "error"}, batch);
  } else if (succeeded(outcome)) {
    // An executor that never reported job.running still ran the workload.
    release_hold_locked(live);
    if (job.status == JobStatus::assigned) (void)move_status(job, JobStatus::starting, now());
    if (job.status == JobStatus::starting && move_status(job, JobStatus::running, now())) job.started_ms = now();
    job.status_reason = "exit code 0";
    job.status_message = "completed with exit code 0";
    end_locked(live, JobStatus::completed,
               {"job.completed", "executor", "Job completed with exit code 0",
                util::JsonMembers().add("exit_code", exit).take()},
               batch);
  } else {
    if (outcome.timed_out)
      m_recorder.event(live, batch, {"job.timed_out", "executor", failure_summary(outcome, job), {}, "error"});
    job.diagnosis = diagnose_locked(live, outcome);
    fail_locked(live, failure_code(outcome), failure_summary(outcome, job), batch, "executor");
  }
}

// The node ended the run: its new state first (so the retry goes
// elsewhere), then the job is requeued or, out of attempts, failed NODE_LOST.
void Engine::Impl::lose_run_locked(LiveJob& live, const exec::RunOutcome& outcome, store::WriteBatch& batch) {
  const std::string node_id = live.job.placement ? live.job.placement->node_id : "";
  if (outcome.node_status == "offline") m_pool.set_status(node_id, model::NodeStatus::offline);
  if (outcome.node_status == "draining") m_pool.set_status(node_id, model::NodeStatus::draining);
  if (outcome.preempted) --live.job.attempts;  // a preemption does not use up an attempt
  requeue_or_fail_locked(live, outcome.lost_reason, batch);
}

}  // namespace jgrid::engine
