#include "impl.hpp"
#include "lifecycle.hpp"

namespace jgrid::engine {

// Three steps: mark the job as being cancelled (executor calls for it are
// ignored from then on), stop the executor without the mutex, then commit
// the terminal transition. Only this call ends a cancelling job, so the
// live entry stays valid across the waits.
Result<model::Job> Engine::Impl::cancel(const std::string& job_id, const std::string& workspace,
                                        const std::string& reason) {
  const std::string why = reason.empty() ? "cancelled by user" : reason;
  std::shared_ptr<exec::Executor> executor;
  {
    std::unique_lock lock(m_mutex);
    LiveJob* live = find_live_locked(job_id);
    if (!live || live->job.workspace != workspace) {
      lock.unlock();
      return cancel_stored(job_id, workspace);
    }
    if (live->cancelling) return make_error("CONFLICT", "job " + job_id + " is already being cancelled");
    live->cancelling = true;
    m_queue.remove(job_id);
    // The executor may not know a job whose start() is still in flight:
    // wait for it so that the one cancel below reaches a known run.
    m_launched_cv.wait(lock, [&] { return m_launching.count(job_id) == 0; });
    live = find_live_locked(job_id);
    if (live->launched) executor = executor_for(live->job);
    store::WriteBatch batch;
    m_recorder.event(*live, batch, {"job.cancel_requested", "api", "Cancel requested: " + why, {{"reason", why}}});
    enqueue_locked(std::move(batch));
  }
  if (executor) executor->cancel(job_id);
  model::Job result;
  {
    std::lock_guard lock(m_mutex);
    LiveJob& live = m_live.at(job_id);  // only this call ends a cancelling job
    live.job.status_reason = why;
    live.job.status_message = "cancelled: " + live.job.status_reason;
    store::WriteBatch batch;
    end_locked(live, model::JobStatus::cancelled,
               {"job.cancelled", "api", "Job cancelled: " + live.job.status_reason,
                {{"reason", live.job.status_reason}}},
               batch);
    result = batch.jobs.back();
    enqueue_locked(std::move(batch));
  }
  m_store.flush();
  return result;
}

// A job the engine does not hold: unknown, in another workspace, or
// already terminal (flush first: its end may still be on its way to the store).
Result<model::Job> Engine::Impl::cancel_stored(const std::string& job_id, const std::string& workspace) {
  m_store.flush();
  auto job = m_store.get_job(job_id);
  if (!job || job->workspace != workspace) return make_error("NOT_FOUND", "job " + job_id + " not found");
  if (model::is_terminal(job->status))
    return make_error("CONFLICT", "job " + job_id + " is already " + std::string(model::to_string(job->status)),
                      {{"status", model::to_string(job->status)}});
  return make_error("CONFLICT", "job " + job_id + " cannot be cancelled before the engine has started");
}

}  // namespace jgrid::engine
