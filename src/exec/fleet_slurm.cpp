#include "exec/fleet_slurm.hpp"

#include <climits>

namespace jgrid::exec {
namespace {

const char* const k_vendors[] = {"amd", "nvidia"};

SlurmGpuType read_gpu_type(JsonChecker& checker, const Json& item, const std::string& path) {
  SlurmGpuType type;
  if (!item.is_object()) {
    checker.fail(path, "an object", &item);
    return type;
  }
  type.vendor = checker.text(item, path, "vendor", std::nullopt);
  if (checker.ok() && type.vendor != k_vendors[0] && type.vendor != k_vendors[1])
    checker.fail(member_path(path, "vendor"), "amd or nvidia", &item.at("vendor"));
  type.model = checker.text(item, path, "model", std::nullopt);
  type.family = checker.text(item, path, "family", "");
  type.gpu_class = checker.text(item, path, "class", "datacenter");
  type.arch = checker.text(item, path, "arch", "");
  type.vram_gb = checker.number(item, path, "vram_gb", 0.0, 0);
  return type;
}

void read_gpu_types(JsonChecker& checker, const Json& section, SlurmOptions& slurm) {
  const Json* types = checker.object(section, "slurm", "gpu_types");
  if (!types) return;
  for (auto it = types->begin(); it != types->end() && checker.ok(); ++it)
    slurm.gpu_types[it.key()] = read_gpu_type(checker, it.value(), "slurm.gpu_types." + it.key());
}

std::chrono::milliseconds seconds(JsonChecker& checker, const Json& section, const char* key,
                                  std::chrono::milliseconds fallback) {
  double value = checker.number(section, "slurm", key, fallback.count() / 1000.0, 0, true);
  return std::chrono::milliseconds(static_cast<long long>(value * 1000));
}

}  // namespace

void read_slurm_section(JsonChecker& checker, const Json& doc, Fleet& fleet) {
  const Json* section = checker.object(doc, "", "slurm");
  if (!section) return;
  SlurmOptions slurm;
  slurm.partitions = checker.strings(*section, "slurm", "partitions").value_or(std::vector<std::string>{});
  slurm.engine = checker.text(*section, "slurm", "engine", "podman");
  if (checker.ok() && slurm.engine != "podman" && slurm.engine != "docker")
    checker.fail("slurm.engine", "podman or docker", &section->at("engine"));
  slurm.engine_args = checker.strings(*section, "slurm", "engine_args").value_or(std::vector<std::string>{});
  slurm.gpu_optional = checker.boolean(*section, "slurm", "gpu_optional", false);
  slurm.render_node_base = static_cast<int>(checker.integer(*section, "slurm", "render_node_base", 128, 0, INT_MAX));
  slurm.poll = seconds(checker, *section, "poll_seconds", slurm.poll);
  slurm.started_poll = seconds(checker, *section, "started_poll_seconds", slurm.started_poll);
  slurm.node_refresh = seconds(checker, *section, "node_refresh_seconds", slurm.node_refresh);
  slurm.region = checker.text(*section, "slurm", "region", "slurm");
  slurm.price_per_gpu_hour = checker.number(*section, "slurm", "price_per_gpu_hour", 0.0, 0);
  slurm.stop_grace_seconds = static_cast<int>(checker.integer(*section, "slurm", "stop_grace_seconds", 10, 0, 3600));
  read_gpu_types(checker, *section, slurm);
  if (checker.ok()) fleet.slurm = std::move(slurm);
}

}  // namespace jgrid::exec
