// What an executor with a scheduler of its own (Slurm) tells the engine
// beyond a run's steps: the run's id there, that the run waits there (the
// job shows `queued` with the delay reason while it keeps its placement),
// and the state of its nodes as that scheduler sees them.
#include "impl.hpp"
#include "lifecycle.hpp"

namespace jgrid::engine {

void Engine::Impl::scheduler_job_id(const std::string& job_id, const std::string& id) {
  std::lock_guard lock(m_mutex);
  LiveJob* live = sink_target_locked(job_id);
  if (!live || !live->job.placement || live->job.placement->slurm_job_id == id) return;
  live->job.placement->slurm_job_id = id;
  store::WriteBatch batch;
  stage_locked(*live, batch);
  enqueue_locked(std::move(batch));
}

// The job stays launched and keeps its GPUs: only its status, phase and
// delay say that it waits; it is not in the engine's queue. A launched job
// is `queued` only while held.
void Engine::Impl::held(const std::string& job_id, const std::string& delay_code, const std::string& message,
                        nlohmann::json data) {
  std::lock_guard lock(m_mutex);
  LiveJob* live = sink_target_locked(job_id);
  if (!live) return;
  model::Job& job = live->job;
  if (job.status == model::JobStatus::running) return;  // its workload runs: nothing to hold
  if (job.status == model::JobStatus::queued && job.delay && job.delay->code == delay_code &&
      job.delay->message == message)
    return;
  (void)move_status(job, model::JobStatus::queued, now());
  if (job.phase != model::Phase::queued) {
    enter_phase(job, model::Phase::queued, now());
    arm_delay_locked(*live);
  }
  job.delay = model::DelayReason{delay_code, message};
  job.status_message = message;
  const bool capacity = delay_code == "CAPACITY_UNAVAILABLE";
  store::WriteBatch batch;
  m_recorder.event(*live, batch,
                   {capacity ? "job.capacity_waiting" : "job.delayed", "executor", message, std::move(data)});
  stage_locked(*live, batch);
  enqueue_locked(std::move(batch));
}

void Engine::Impl::release_hold_locked(LiveJob& live) {
  if (live.job.status != model::JobStatus::queued) return;
  live.job.delay.reset();
  (void)move_status(live.job, model::JobStatus::assigned, now());
}

void Engine::Impl::nodes_observed(const std::vector<exec::NodeObservation>& observations) {
  std::lock_guard lock(m_mutex);
  bool changed = false;
  for (const auto& seen : observations) {
    auto before = m_pool.find(seen.node_id);
    if (!before) continue;
    m_pool.set_status(seen.node_id, seen.status);
    m_pool.set_held_elsewhere(seen.node_id, seen.gpus_held_elsewhere);
    auto after = m_pool.find(seen.node_id);
    changed = changed || after->status != before->status || after->gpus_free != before->gpus_free;
  }
  if (changed) wake_locked();
}

}  // namespace jgrid::engine
