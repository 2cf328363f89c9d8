#include <algorithm>

#include "impl.hpp"
#include "lifecycle.hpp"

namespace jgrid::engine {
namespace {

const std::string k_restart_reason = "node lost: server restarted";

// Forgets what the lost run did, so the next attempt starts clean.
void clear_run(model::Job& job) {
  job.placement.reset();
  job.started_ms.reset();
  job.exit_code.reset();
  job.image_digest.clear();
  job.command_spawned = job.inputs_prepared = job.scripts_prepared = false;
  job.artifacts_ready = false;
}

}  // namespace

// Every job left non-terminal is owned again before the loop starts: queued
// ones go back in the queue (in creation order); running ones on a node
// whose executor may still have them keep their GPUs and are handed to
// reattach() once the loop runs (resume.cpp); other placed ones lost their
// node with the previous process and are retried or failed. One durable
// commit.
Status Engine::Impl::start() {
  open_lookup_gate();
  open_pass_gate();
  std::unique_lock lock(m_mutex);
  if (m_started) return Ok{};
  m_recorder.continue_after(m_store.counters().max_event_seq);
  auto jobs = m_store.live_jobs();
  std::sort(jobs.begin(), jobs.end(), [](const model::Job& a, const model::Job& b) { return a.id < b.id; });
  store::WriteBatch batch;
  std::vector<std::string> resumes;
  for (auto& job : jobs) adopt_locked(std::move(job), batch, resumes);
  if (Status committed = m_store.commit(std::move(batch)); !committed) {
    for (auto& [id, live] : m_live) disarm_delay_locked(live);
    disarm_pass_locked();  // armed by queue_job_locked
    m_wake = false;
    m_live.clear();
    m_queue = JobQueue{};
    m_fresh.clear();
    return committed;
  }
  m_started = true;
  m_stopping = false;
  wake_locked();
  m_loop = std::thread([this] { run_loop(); });
  start_callbacks_locked();
  m_ready = true;
  std::vector<std::pair<std::string, std::string>> parked;  // job id, image
  for (const auto& [id, live] : m_live)
    if (live.awaiting_image) parked.emplace_back(id, live.job.spec->image);
  lock.unlock();
  for (const auto& [id, image] : parked) watch_image(id, image);
  for (const auto& id : resumes) resume(id);
  // After the resumes: an executor then knows its runs when it first says
  // which GPUs of a node are held by others.
  std::set<exec::Executor*> watched;
  for (auto& [source, executor] : m_executors)
    if (executor && watched.insert(executor.get()).second) executor->watch_nodes(*this);
  return Ok{};
}

void Engine::Impl::stop() {
  if (m_sender) m_sender->stop();  // before the mutex: its last record takes it
  close_lookup_gate();             // likewise: a lookup's callback takes it
  {
    std::lock_guard lock(m_mutex);
    if (!m_started || m_stopping) return;
    m_stopping = true;
    m_ready = false;
    m_wake_cv.notify_all();
    for (auto& [id, live] : m_live) disarm_delay_locked(live);  // a shared virtual clock must not wait for them
    disarm_pass_locked();
  }
  close_pass_gate();  // a pass running on the timer thread finishes first
  m_delay_timers.close();
  if (m_loop.joinable()) m_loop.join();
  std::set<exec::Executor*> stopped;
  for (auto& [source, executor] : m_executors)
    if (executor && stopped.insert(executor.get()).second) executor->shutdown();
  m_store.flush();
}

// The lines a run printed before the restart count for its diagnosis too.
void Engine::Impl::rescan_output_locked(LiveJob& live) {
  constexpr int k_page = 1000;
  for (std::int64_t after = 0;;) {
    auto lines = m_store.list_logs({live.job.id, after, "all", k_page, std::nullopt});
    for (const auto& line : lines)
      if (line.stream == "stdout" || line.stream == "stderr") live.output_scan.line(line.stream, line.sequence, line.message);
    if (lines.size() < static_cast<std::size_t>(k_page)) return;
    after = lines.back().sequence;
  }
}

void Engine::Impl::adopt_locked(model::Job job, store::WriteBatch& batch, std::vector<std::string>& resumes) {
  const std::string id = job.id;
  LiveJob& live = m_live.add(LiveJob{std::move(job)});
  // No wait at a restart: a lookup still running parks a queued job again.
  ImageRead image = read_image(live.job.spec->image, std::chrono::milliseconds(0));
  live.intent = screen_read(*live.job.spec, image).intent;
  live.event_sequence = m_store.max_event_sequence(id);
  live.log_sequence = m_store.max_log_sequence(id);
  if (live.log_sequence > 0 && reads_for_diagnosis(live)) rescan_output_locked(live);
  if (live.job.placement && hold_for_resume_locked(live)) {
    resumes.push_back(id);
    return;
  }
  switch (live.job.status) {
    case model::JobStatus::pending:
      (void)move_status(live.job, model::JobStatus::queued, now());
      m_recorder.event(live, batch, {"job.queued", "scheduler", "Waiting for a node"});
      stage_locked(live, batch);
      [[fallthrough]];
    case model::JobStatus::queued:
      if (live.job.placement) break;  // held by a scheduler whose run cannot be resumed
      if (image.pending && m_options.image_lookup) {
        park_locked(live);
        return;
      }
      queue_job_locked(live);
      return;
    default:
      break;
  }
  requeue_or_fail_locked(live, k_restart_reason, batch);
}

// A placed job whose node is gone: back to the queue while attempts remain,
// else failed with NODE_LOST.
void Engine::Impl::requeue_or_fail_locked(LiveJob& live, const std::string& reason, store::WriteBatch& batch) {
  model::Job& job = live.job;
  if (job.attempts >= m_options.max_attempts) {
    fail_locked(live, "NODE_LOST",
                reason + " (attempt " + std::to_string(job.attempts) + " of " + std::to_string(m_options.max_attempts) +
                    ")",
                batch);
    return;
  }
  std::string node_id = job.placement ? job.placement->node_id : "";
  release_gpus_locked(live);
  clear_run(job);
  live.launched = false;
  (void)move_status(job, model::JobStatus::queued, now());
  enter_phase(job, model::Phase::queued, now());
  live.capacity_waiting = false;
  job.status_reason = reason;
  job.status_message = reason + ": waiting for another node";
  int attempt = job.attempts + 1;
  m_recorder.event(live, batch,
                   {"job.retrying", "scheduler",
                    reason + ": retrying (attempt " + std::to_string(attempt) + " of " +
                        std::to_string(m_options.max_attempts) + ")",
                    {{"attempt", attempt}, {"reason", reason}, {"node_id", node_id}}, "warning"});
  stage_locked(live, batch);
  queue_job_locked(live);
}

}  // namespace jgrid::engine
