#include "slurm_setup.hpp"

#include <algorithm>
#include <set>

#include "jgrid/util/log.hpp"

namespace jgrid::cli {
namespace {

exec::SlurmOptions slurm_options(const ServeOptions& o, const exec::Fleet& fleet, const std::filesystem::path& data_dir) {
  exec::SlurmOptions options = fleet.slurm.value_or(exec::SlurmOptions{});
  if (!o.slurm_partitions.empty()) options.partitions = o.slurm_partitions;
  if (!o.slurm_engine.empty()) options.engine = o.slurm_engine;
  options.engine_args.insert(options.engine_args.end(), o.slurm_engine_args.begin(), o.slurm_engine_args.end());
  options.gpu_optional = options.gpu_optional || o.slurm_gpu_optional;
  options.data_dir = std::filesystem::absolute(data_dir);
  return options;
}

// "n1 (2× MI300X), n2 (1× Radeon PRO W7900) in gpu; unusable: n3 (no GPU GRES)".
std::string describe(const std::vector<exec::SlurmNode>& nodes) {
  std::string usable, unusable;
  std::set<std::string> partitions;
  for (const auto& slurm : nodes) {
    const model::Node& node = slurm.node;
    if (!slurm.unusable.empty()) {
      unusable += (unusable.empty() ? "" : ", ") + node.name + " (" + slurm.unusable + ")";
      continue;
    }
    usable += (usable.empty() ? "" : ", ") + node.name + " (" + std::to_string(node.gpu_count) + "× " +
              node.gpu_model + ", " + std::string(model::to_string(node.status)) + ")";
    partitions.insert(node.pool);
  }
  std::string text = usable.empty() ? "no usable node" : usable;
  std::string in;
  for (const auto& name : partitions) in += (in.empty() ? "" : ", ") + name;
  if (!in.empty()) text += " in " + in;
  if (!unusable.empty()) text += "; never used: " + unusable;
  return text;
}

}  // namespace

bool slurm_wanted(const ServeOptions& o, const exec::Fleet& fleet) { return o.slurm || fleet.slurm.has_value(); }

Result<SlurmSetup> setup_slurm(const ServeOptions& o, exec::Fleet& fleet, const std::filesystem::path& data_dir,
                               std::shared_ptr<util::Clock> clock) {
  if (!slurm_wanted(o, fleet)) return SlurmSetup{};
  auto options = slurm_options(o, fleet, data_dir);
  auto nodes = exec::read_slurm_nodes(options);
  if (!nodes) return nodes.error();
  bool any_usable = std::any_of(nodes->begin(), nodes->end(), [](const auto& n) { return n.unusable.empty(); });
  if (!any_usable)
    return make_error("SLURM_NO_NODES", "Slurm: no node with GPUs the grid can use: " + describe(*nodes) +
                                            " (see docs/slurm.md: GRES gpu:<type>:<n> and Features)");
  if (!o.slurm_skip_data_dir_check) {
    std::vector<std::string> skipped;
    if (Status shared = exec::check_shared_data_dir(options, *nodes, skipped); !shared) return shared.error();
    for (const auto& partition : skipped)
      util::log(util::LogLevel::warn, "slurm",
                "could not check the data dir on partition " + partition + " (no node free now); jobs check it");
  }
  for (const auto& node : *nodes) fleet.nodes.push_back(node.node);
  SlurmSetup setup;
  setup.summary = describe(*nodes);
  setup.executor = exec::make_slurm_executor(std::move(options), std::move(*nodes), std::move(clock));
  return setup;
}

}  // namespace jgrid::cli
