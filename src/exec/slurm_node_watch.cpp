// The node watcher: the cluster's view of our nodes, every node_refresh.
// GPUs Slurm reports allocated beyond those of our own running jobs are
// held by someone else (another user, an admin's reservation).
#include "exec/slurm_executor_impl.hpp"
#include "jgrid/exec/slurm_states.hpp"
#include "jgrid/util/log.hpp"

namespace jgrid::exec {

void SlurmExecutor::node_loop() {
  do refresh_nodes();
  while (sleep_for(m_options.node_refresh));
}

// From squeue read now, not the tracker's last poll: a run that started
// since would look like someone else's until the next refresh.
std::optional<std::map<std::string, int>> SlurmExecutor::our_running_gpus() {
  std::map<std::string, std::pair<std::string, int>> by_slurm_id;  // node id, GPUs
  {
    std::lock_guard lock(m_mutex);
    for (const auto& [id, run] : m_runs)
      if (!run->slurm_id.empty())
        by_slurm_id[run->slurm_id] = {run->request.node.id,
                                      run->request.job.placement ? run->request.job.placement->gpu_count : 1};
  }
  std::map<std::string, int> gpus;
  auto rows = slurm_queue();
  if (!rows) return std::nullopt;
  for (const auto& row : *rows) {
    auto ours = by_slurm_id.find(row.id);
    if (ours != by_slurm_id.end() && slurm_job_on_node(row.state))
      gpus[ours->second.first] += ours->second.second;
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
  if (!ours) return;  // Slurm does not answer: the next refresh tries again
  std::vector<NodeObservation> seen;
  for (const auto& slurm : *nodes) {
    const model::Node& node = slurm.node;
    if (!m_nodes.count(node.id)) continue;
    NodeObservation observation{node.id, node.status, 0};
    if (!slurm.unusable.empty()) observation.status = model::NodeStatus::offline;
    if (observation.status == model::NodeStatus::busy) observation.status = model::NodeStatus::online;
    observation.gpus_held_elsewhere = std::max(0, node.gpu_count - node.gpus_free - (*ours)[node.id]);
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
