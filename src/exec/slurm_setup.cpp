// What `serve --slurm` does before the engine starts: read the cluster's
// nodes, and check that the compute nodes see the data dir.
#include <algorithm>
#include <cstdlib>
#include <random>

#include "exec/slurm_cli.hpp"
#include "jgrid/exec/slurm_executor.hpp"
#include "jgrid/util/files.hpp"
#include "jgrid/util/strings.hpp"

namespace jgrid::exec {
namespace {

// The first of the chosen partitions the node is in ("" when none); any of
// its partitions when none are chosen.
std::string chosen_partition(const SlurmNode& node, const std::vector<std::string>& chosen) {
  auto partitions = util::split(node.node.labels.at("slurm.partitions"), ',');
  if (chosen.empty()) return partitions.empty() ? node.node.pool : partitions[0];
  for (const auto& partition : partitions)
    if (std::find(chosen.begin(), chosen.end(), partition) != chosen.end()) return partition;
  return "";
}

std::string random_suffix() {
  std::random_device device;
  return std::to_string(device()) + std::to_string(device());
}

}  // namespace

Result<std::vector<SlurmNode>> read_slurm_nodes(const SlurmOptions& options) {
  // Slurm's tools spend 30 s looking for a controller when SLURM_CONF names no file.
  if (const char* conf = std::getenv("SLURM_CONF"); conf && *conf && !std::filesystem::exists(conf))
    return make_error("SLURM_UNAVAILABLE", std::string("SLURM_CONF is ") + conf +
                                               ", which does not exist: point it at the cluster's slurm.conf");
  auto text = slurm_sinfo_json();
  if (!text) return text.error();
  auto parsed = parse_sinfo_nodes(*text, options.gpu_types);
  if (!parsed) return parsed.error();
  std::vector<SlurmNode> nodes;
  for (auto& node : *parsed) {
    std::string partition = chosen_partition(node, options.partitions);
    if (partition.empty()) continue;
    node.node.pool = partition;
    node.node.region = options.region;
    node.node.price_per_gpu_hour = options.price_per_gpu_hour;
    nodes.push_back(std::move(node));
  }
  return nodes;
}

Status check_shared_data_dir(const SlurmOptions& options, const std::vector<SlurmNode>& nodes,
                             std::vector<std::string>& skipped) {
  auto probe = options.data_dir / (".slurm-check-" + random_suffix());
  if (Status written = util::write_file_atomic(probe, "jgrid-local\n"); !written)
    return make_error("DATA_DIR_NOT_SHARED", "cannot write " + probe.string() + ": " + written.error().message);
  std::map<std::string, const SlurmNode*> one_per_partition;
  for (const auto& node : nodes)
    if (node.unusable.empty() && node.node.status != model::NodeStatus::offline)
      one_per_partition.emplace(node.node.pool, &node);
  Status verdict = Ok{};
  for (const auto& [partition, node] : one_per_partition) {
    auto seen = slurm_run_on(partition, node->node.name, {"test", "-f", probe.string()});
    if (!seen) {
      verdict = seen.error();
      break;
    }
    if (!*seen) {
      skipped.push_back(partition);
      continue;
    }
    if (**seen != 0) {
      verdict = make_error("DATA_DIR_NOT_SHARED",
                           "the data dir " + options.data_dir.string() + " is not visible on Slurm node " +
                               node->node.name + " (partition " + partition +
                               "): mount it at the same path on every compute node, or start with --data-dir on a "
                               "shared filesystem");
      break;
    }
  }
  std::error_code ec;
  std::filesystem::remove(probe, ec);
  return verdict;
}

}  // namespace jgrid::exec
