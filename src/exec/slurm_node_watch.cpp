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

// From squeue read now or by the tracker just before, not the tracker's
// last poll whatever its age: a run that started since would look like
// someone else's until the next refresh. A run whose script has started
// counts as on its node whatever the rows say. No runs, no squeue.
std::optional<std::map<std::string, int>> SlurmExecutor::our_running_gpus() {
  struct Ours {
    std::string node_id;
    int gpus;
    bool started;
  };
  std::map<std::string, Ours> by_slurm_id;
  {
    std::lock_guard lock(m_mutex);
    for (const auto& [id, run] : m_runs)
      if (!run->slurm_id.empty())
        by_slurm_id[run->slurm_id] = {run->request.node.id,
                                      run->request.job.placement ? run->request.job.placement->gpu_count : 1,
                                      run->started_seen};
  }
  std::map<std::string, int> gpus;
  if (by_slurm_id.empty()) return gpus;
  auto rows = recent_queue();
  if (!rows) return std::nullopt;
  for (const auto& row : *rows) {
    auto ours = by_slurm_id.find(row.id);
    if (ours != by_slurm_id.end() && slurm_job_on_node(row.state)) ours->second.started = true;
  }
  for (const auto& [slurm_id, ours] : by_slurm_id)
    if (ours.started) gpus[ours.node_id] += ours.gpus;
  return gpus;
}

Result<std::vector<SlurmJobRow>> SlurmExecutor::recent_queue() {
  {
    std::lock_guard lock(m_mutex);
    if (squeue_rows_fresh(m_queue_at, std::chrono::steady_clock::now(), m_options)) return m_queue;
  }
  return slurm_queue();
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
