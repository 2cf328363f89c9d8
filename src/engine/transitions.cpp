#include <algorithm>

#include "impl.hpp"
#include "jgrid/util/ids.hpp"
#include "lifecycle.hpp"

namespace jgrid::engine {

Engine::Impl::Impl(store::Store& store, std::shared_ptr<util::Clock> clock, exec::Fleet fleet,
                   exec::ExecutorRegistry executors, EngineOptions options)
    : m_store(store),
      m_clock(std::move(clock)),
      m_fleet(std::move(fleet)),
      m_executors(std::move(executors)),
      m_options(std::move(options)),
      m_pool(m_fleet.nodes, m_fleet.seed),
      m_recorder(*m_clock, m_options.max_log_bytes),
      m_delay_timers(*m_clock, [this](const std::string& job_id, std::uint64_t token) { delay_due(job_id, token); }) {
  m_recorder.keep_digest(m_options.keep_event_digest);
}

LiveJob* Engine::Impl::find_live_locked(const std::string& job_id) {
  return m_live.find(job_id);
}

void Engine::Impl::queue_job_locked(LiveJob& live) {
  if (live.route_key.empty()) live.route_key = route::route_key(live.job.spec, live.intent);
  m_queue.push(live.job.id, live.job.spec->priority, live.route_key);
  m_fresh.push_back(live.job.id);
  wake_locked();  // first: on a virtual clock the pass is then due before the delay timer
  arm_delay_locked(live);
}

void Engine::Impl::touch_locked(LiveJob& live) {
  live.job.updated_ms = std::max(live.job.updated_ms, now());
  live.tails_dirty = false;
}

void Engine::Impl::stage_locked(LiveJob& live, store::WriteBatch& batch) {
  touch_locked(live);
  // A copy of the job per step is most of a simulated step's cost.
  if (m_store.keeps_job_states() || model::is_terminal(live.job.status)) batch.jobs.push_back(live.job);
}

void Engine::Impl::enqueue_locked(store::WriteBatch batch) {
  if (batch.empty()) return;
  bool callbacks = !batch.deliveries.empty();
  m_store.commit_async(std::move(batch));
  if (callbacks && m_sender) m_sender->wake();  // after the queueing: its pass flushes first
}

// On a virtual clock the pass is a timer due now: time does not move on
// until the engine has placed what it can. One callback may call the engine
// several times (a lost node ends each of its runs, one at a time), and the
// pass comes after the last of them.
void Engine::Impl::wake_locked() {
  if (m_clock->is_virtual()) return arm_pass_locked();
  m_wake = true;
  m_wake_cv.notify_all();
}

void Engine::Impl::release_gpus_locked(LiveJob& live) {
  if (!live.holds_gpus || !live.job.placement) return;
  m_pool.release(live.job.placement->node_id, live.job.placement->gpu_indices);
  live.holds_gpus = false;
  wake_locked();
}

void Engine::Impl::end_locked(LiveJob& live, model::JobStatus to, EventSpec terminal_event, store::WriteBatch& batch) {
  model::Job& job = live.job;
  std::int64_t at = now();
  if (!move_status(job, to, at)) {
    (void)move_status(job, model::JobStatus::failed, at);
    terminal_event.type = "job.failed";
  }
  enter_phase(job, model::Phase::done, at);
  job.completed_ms = at;
  job.actual_cost_usd = run_cost(job, at);
  job.delay.reset();
  if (live.dropped_lines > 0) terminal_event.data["log_lines_dropped"] = live.dropped_lines;
  m_recorder.event(live, batch, std::move(terminal_event));
  release_gpus_locked(live);
  touch_locked(live);  // staged below, moved rather than copied
  if (job.spec->callback) {
    // The batch with this job's cost is not committed yet: what the store
    // has summed, plus this job (whose stored cost is still 0).
    double spent = m_store.spent_usd(job.workspace) + job.actual_cost_usd.value_or(0);
    batch.deliveries.push_back(model::make_delivery(job, util::new_id("dlv", at), at, spent));
  }
  m_queue.remove(job.id);
  disarm_delay_locked(live);
  const std::string id = job.id;
  batch.jobs.push_back(std::move(job));  // its final document: the live job goes now
  m_live.erase(id);
}

void Engine::Impl::fail_locked(LiveJob& live, const std::string& code, const std::string& summary,
                               store::WriteBatch& batch, const std::string& source) {
  live.job.failure = model::Failure{code, summary};
  live.job.status_reason = code;
  live.job.status_message = summary;
  nlohmann::json data = {{"failure_code", code}, {"timed_out", live.job.timed_out}};
  data["exit_code"] = live.job.exit_code ? nlohmann::json(*live.job.exit_code) : nlohmann::json(nullptr);
  if (live.job.diagnosis) data["diagnosis"] = model::diagnosis_to_json(*live.job.diagnosis);
  end_locked(live, model::JobStatus::failed, EventSpec{"job.failed", source, summary, data, "error"}, batch);
}

}  // namespace jgrid::engine
