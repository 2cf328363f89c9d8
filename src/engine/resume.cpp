// Runs that outlive the server process (local containers, Slurm jobs):
// after a restart a job that was `running` (any placed job, with an
// executor that queues runs of its own) keeps its placement and GPUs and
// is handed to its executor's reattach(). What it says decides the job: followed again (the
// run reports on as if nothing happened), gone (failed NODE_LOST: its output
// and effects are unknown, so it is not silently run twice), or not
// supported by that executor (retried or failed as any lost placement).
#include "impl.hpp"
#include "jgrid/model/layout.hpp"
#include "jgrid/util/log.hpp"

namespace jgrid::engine {
namespace {

constexpr int k_page = 5000;

struct StoredOutput {
  exec::LogSkip skip;
  std::int64_t bytes = 0;
};

// What the store already has of the job's workload output.
StoredOutput count_output(const store::Store& store, const std::string& job_id) {
  StoredOutput stored;
  store::LogQuery query;
  query.job_id = job_id;
  query.limit = k_page;
  while (true) {
    auto page = store.list_logs(query);
    for (const auto& entry : page) {
      if (entry.stream == "stdout") ++stored.skip.stdout_lines;
      if (entry.stream == "stderr") ++stored.skip.stderr_lines;
      if (entry.stream != "system") stored.bytes += static_cast<std::int64_t>(entry.message.size()) + 1;
    }
    if (static_cast<int>(page.size()) < k_page) return stored;
    query.after_sequence = page.back().sequence;
  }
}

}  // namespace

bool Engine::Impl::hold_for_resume_locked(LiveJob& live) {
  const model::Job& job = live.job;
  if (!job.placement) return false;
  auto node = m_pool.find(job.placement->node_id);
  if (!node) return false;
  auto executor = m_executors.find(node->source);
  if (executor == m_executors.end() || !executor->second->outlives_server()) return false;
  if (job.status != model::JobStatus::running && !executor->second->queues_runs()) return false;
  if (!m_pool.take(node->id, job.placement->gpu_indices)) return false;
  live.holds_gpus = true;
  live.launched = true;
  m_launching.insert(job.id);  // a cancel meanwhile waits until reattach() answered
  return true;
}

void Engine::Impl::resume(const std::string& job_id) {
  StoredOutput stored = count_output(m_store, job_id);
  std::shared_ptr<exec::Executor> executor;
  exec::RunRequest request;
  {
    std::lock_guard lock(m_mutex);
    LiveJob* live = find_live_locked(job_id);
    executor = live ? executor_for(live->job) : nullptr;
    if (!executor) {
      m_launching.erase(job_id);
      m_launched_cv.notify_all();
      return;
    }
    live->log_bytes = stored.bytes;
    request = exec::RunRequest{live->job, *m_pool.find(live->job.placement->node_id),
                               model::job_dir(m_options.data_dir, job_id)};
  }
  Status attached = executor->reattach(request, *this, stored.skip);
  {
    std::lock_guard lock(m_mutex);
    m_launching.erase(job_id);
    m_launched_cv.notify_all();
    LiveJob* live = find_live_locked(job_id);
    if (!attached && live && !live->cancelling) {
      store::WriteBatch batch;
      if (attached.error().code == "UNSUPPORTED")
        requeue_or_fail_locked(*live, "node lost: server restarted", batch);
      else
        fail_locked(*live, "NODE_LOST", "node lost after a restart: " + attached.error().message, batch, "executor");
      enqueue_locked(std::move(batch));
    }
  }
  if (attached)
    util::log(util::LogLevel::info, "engine", "reattached a run left by the previous process",
              {{"job_id", job_id}, {"executor", executor->kind()}});
  m_store.flush();
}

}  // namespace jgrid::engine
