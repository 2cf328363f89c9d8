// The node watcher: the cluster's view of our nodes, every node_refresh.
// GPUs Slurm reports allocated beyond those of our own running jobs are
// held by someone else (another user, an admin's reservation).
#include "exec/slurm_executor_impl.hpp"
#include "jgrid/util/log.hpp"

namespace jgrid::exec {

void SlurmExecutor::node_loop() {
  do refresh_nodes();
  while (sleep_for(m_options.node_refresh));
}

std::map<std::string, int> SlurmExecutor::our_running_gpus() {
  std::lock_guard lock(m_mutex);
  std::map<std::string, int> gpus;
  for (const auto& [id, run] : m_runs) {
    const std::string& state = run->slurm_state;
    // Unknown yet (reattached, not polled): counted as ours, or its GPUs
    // would look taken by someone else until the next refresh.
    if (!state.empty() && state != "RUNNING" && state != "COMPLETING" && state != "CONFIGURING") continue;
    gpus[run->request.node.id] += run->request.job.placement ? run->request.job.placement->gpu_count : 1;
  }
  return gpus;
}

void SlurmExecutor::refresh_nodes() {
  auto text = slurm_sinfo_json();
  auto nodes = text ? parse_sinfo_nodes(*text, m_options.gpu_types) : Result<std::vector<SlurmNode>>(text.error());
  if (!nodes) {
    util::log(util::LogLevel::warn, "slurm", nodes.error().message);
    return;
  }
  auto ours = our_running_gpus();
  std::vector<NodeObservation> seen;
  for (const auto& slurm : *nodes) {
    const model::Node& node = slurm.node;
    if (!m_nodes.count(node.id)) continue;
    NodeObservation observation{node.id, node.status, 0, "slurm state " + slurm.slurm_state};
    if (!slurm.unusable.empty()) observation.status = model::NodeStatus::offline;
    if (observation.status == model::NodeStatus::busy) observation.status = model::NodeStatus::online;
    observation.gpus_held_elsewhere = std::max(0, node.gpu_count - node.gpus_free - ours[node.id]);
    seen.push_back(std::move(observation));
  }
  NodeSink* sink = nullptr;
  {
    std::lock_guard lock(m_mutex);
    sink = m_node_sink;
  }
  if (sink && !seen.empty()) sink->nodes_observed(seen);
}

}  // namespace jgrid::exec
