#include "impl.hpp"
#include "jgrid/model/layout.hpp"

namespace jgrid::engine {

std::shared_ptr<exec::Executor> Engine::Impl::executor_for(const model::Job& job) const {
  if (!job.placement) return nullptr;
  auto node = m_pool.find(job.placement->node_id);
  if (!node) return nullptr;
  auto it = m_executors.find(node->source);
  return it == m_executors.end() ? nullptr : it->second;
}

Result<std::vector<StagedInput>> Engine::Impl::staged_inputs(const LaunchFiles& files) const {
  std::vector<StagedInput> staged;
  for (const auto* ids : {&files.spec->input_files, &files.spec->script_files}) {
    for (const auto& id : *ids) {
      auto input = m_store.get_input(id);
      if (!input) return make_error("JOB_INPUT_NOT_FOUND", "job input " + id + " of " + files.job_id + " not found");
      staged.push_back(StagedInput{std::move(*input), ids == &files.spec->script_files});
    }
  }
  return staged;
}

// The workspace the job's executor reads, or a clean slate for one that
// reads none (only a retry can find something there).
Status Engine::Impl::prepare_files(const LaunchFiles& files, const exec::Executor* executor) const {
  if (executor && !executor->mounts_workspace())
    return files.attempts > 1 ? clear_workspace(m_options.data_dir, files.job_id) : Status(Ok{});
  auto inputs = staged_inputs(files);
  return inputs ? prepare_workspace(m_options.data_dir, files.job_id, *inputs) : Status(inputs.error());
}

// Prepares the workspace (file copies, without the mutex), then hands the
// job to its node's executor. A job cancelled meanwhile is left alone.
void Engine::Impl::launch(const std::string& job_id) {
  LaunchFiles files;
  std::shared_ptr<exec::Executor> executor;
  {
    std::lock_guard lock(m_mutex);
    LiveJob* live = find_live_locked(job_id);
    if (!live || live->cancelling) return;
    files = LaunchFiles{job_id, live->job.spec, live->job.attempts};
    executor = executor_for(live->job);
  }
  Status prepared = prepare_files(files, executor.get());
  std::unique_lock lock(m_mutex);
  LiveJob* live = find_live_locked(job_id);
  if (!live || live->cancelling) return;
  auto node = m_pool.find(live->job.placement->node_id);
  if (!prepared || !executor) {
    store::WriteBatch batch;
    fail_locked(*live, "START_FAILED",
                !prepared ? prepared.error().message
                          : "no executor for node " + live->job.placement->node_name + " (source " + node->source + ")",
                batch);
    enqueue_locked(std::move(batch));
    return;
  }
  live->launched = true;
  m_launching.insert(job_id);
  exec::RunRequest request{live->job, *node, model::job_dir(m_options.data_dir, job_id)};
  lock.unlock();
  start_run(job_id, std::move(executor), std::move(request));
}

void Engine::Impl::start_run(const std::string& job_id, std::shared_ptr<exec::Executor> executor,
                             exec::RunRequest request) {
  Status started = executor->start(std::move(request), *this);
  std::lock_guard lock(m_mutex);
  m_launching.erase(job_id);
  m_launched_cv.notify_all();
  LiveJob* live = find_live_locked(job_id);
  if (!started && live && !live->cancelling) {
    store::WriteBatch batch;
    fail_locked(*live, "START_FAILED", started.error().message, batch, "executor");
    enqueue_locked(std::move(batch));
  }
}

}  // namespace jgrid::engine
