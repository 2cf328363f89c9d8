// Node operations and the reset of the simulation (sim.md §4).
#include "impl.hpp"
#include "jgrid/exec/faults.hpp"

namespace jgrid::engine {
namespace {

const std::map<std::string, model::NodeStatus>& operations() {
  static const std::map<std::string, model::NodeStatus> k_operations = {
      {"drain", model::NodeStatus::draining},
      {"undrain", model::NodeStatus::online},
      {"online", model::NodeStatus::online},
      {"offline", model::NodeStatus::offline},
  };
  return k_operations;
}

}  // namespace

Result<model::Node> Engine::Impl::set_node_status(const std::string& node, const std::string& operation) {
  auto it = operations().find(operation);
  if (it == operations().end())
    return make_error("INVALID_REQUEST", "operation: expected drain, undrain, offline or online, got '" + operation + "'");
  std::string node_id;
  {
    std::lock_guard lock(m_mutex);
    auto found = m_pool.find(node);
    if (!found) found = m_pool.find("node_" + node);
    if (!found) return make_error("NOT_FOUND", "node " + node + " not found");
    node_id = found->id;
    m_pool.set_status(node_id, it->second);
    if (it->second == model::NodeStatus::online) wake_locked();
  }
  if (it->second == model::NodeStatus::offline) lose_jobs_on(node_id, "node lost: " + node + " taken offline");
  std::lock_guard lock(m_mutex);
  return *m_pool.find(node_id);
}

// The runs on the node are stopped (their executor calls are ignored from
// the moment they are marked), then each job is requeued or failed.
void Engine::Impl::lose_jobs_on(const std::string& node_id, const std::string& reason) {
  std::vector<std::pair<std::string, std::shared_ptr<exec::Executor>>> runs;
  {
    std::lock_guard lock(m_mutex);
    for (auto& [id, live] : m_live) {
      if (!live.launched || live.cancelling || !live.job.placement || live.job.placement->node_id != node_id) continue;
      live.cancelling = true;
      runs.emplace_back(id, executor_for(live.job));
    }
  }
  for (auto& [id, executor] : runs)
    if (executor) executor->cancel(id);
  std::lock_guard lock(m_mutex);
  store::WriteBatch batch;
  for (auto& [id, executor] : runs) {
    LiveJob* live = find_live_locked(id);
    if (!live) continue;
    live->cancelling = false;
    requeue_or_fail_locked(*live, reason, batch);
  }
  enqueue_locked(std::move(batch));
}

std::size_t Engine::Impl::reset() {
  std::vector<std::pair<std::string, std::string>> jobs;  // id, workspace
  {
    std::lock_guard lock(m_mutex);
    for (const auto& [id, live] : m_live) jobs.emplace_back(id, live.job.workspace);
  }
  std::size_t cancelled = 0;
  for (const auto& [id, workspace] : jobs) cancelled += cancel(id, workspace, "simulation reset").ok();
  for (auto& [source, executor] : m_executors) {
    if (!executor) continue;
    if (auto* faults = executor->faults()) faults->clear();
    executor->reset();
  }
  std::lock_guard lock(m_mutex);
  for (const auto& node : m_pool.snapshot())
    if (node.source == "simulated") m_pool.set_status(node.id, model::NodeStatus::online);
  m_recorder.reset_digest();
  wake_locked();
  return cancelled;
}

}  // namespace jgrid::engine
