#include "jgrid/exec/slurm_nodes.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>

#include "jgrid/util/strings.hpp"

namespace jgrid::exec {
namespace {

using Json = nlohmann::json;

struct Gres {
  std::string type;  // lower-case; "" when the GRES names no type
  int count = 0;
};

// "gpu:mi300x:2", "gpu:mi300x:2(S:0-1)", "gpu:mi300x:1(IDX:0)", several
// comma-separated; the GPU entries only, summed per type.
std::vector<Gres> parse_gpu_gres(const std::string& text) {
  std::vector<Gres> out;
  for (auto& item : util::split(text, ',')) {
    auto fields = util::split(item.substr(0, item.find('(')), ':');
    if (fields.empty() || fields[0] != "gpu") continue;
    Gres gres;
    if (fields.size() == 3) gres.type = util::to_lower(fields[1]);
    try {
      gres.count = std::stoi(fields.back());
    } catch (const std::exception&) {
      continue;  // "gpu:mi300x" alone: a type without a count says nothing usable
    }
    out.push_back(gres);
  }
  return out;
}

struct Features {
  std::string vendor, arch, runtime, runtime_version;
};

// amd/nvidia, gfx<arch>, rocm<version>/cuda<version>; other features are labels only.
Features parse_features(const std::string& text) {
  Features out;
  for (auto& raw : util::split(text, ',')) {
    auto feature = util::to_lower(util::trim(raw));
    if (feature == "amd" || feature == "nvidia") out.vendor = feature;
    else if (feature.rfind("gfx", 0) == 0) out.arch = feature;
    else if (feature.rfind("rocm", 0) == 0) out.runtime = "rocm", out.runtime_version = feature.substr(4);
    else if (feature.rfind("cuda", 0) == 0) out.runtime = "cuda", out.runtime_version = feature.substr(4);
  }
  return out;
}

std::string state_text(const std::string& state, const std::vector<std::string>& flags) {
  std::string text = state;
  for (const auto& flag : flags) text += "+" + flag;
  return text;
}

std::vector<std::string> json_string_list(const Json& value) {
  std::vector<std::string> out;
  if (value.is_array())
    for (const auto& item : value)
      if (item.is_string()) out.push_back(item.get<std::string>());
  return out;
}

std::string json_string_member(const Json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

// Fills the GPU description of `node`; returns why it cannot be used, or "".
std::string describe_slurm_gpus(model::Node& node, const Json& entry, const SlurmGpuTypes& types) {
  auto gres = parse_gpu_gres(json_string_member(entry, "gres"));
  if (gres.empty()) return "no GPU GRES (gres is \"" + json_string_member(entry, "gres") + "\")";
  if (gres.size() > 1) return "GPUs of several types on one node are not supported yet";
  auto type = types.find(gres[0].type);
  if (type == types.end())
    return "GRES type \"" + gres[0].type + "\" is not in the GPU type table; add it under slurm.gpu_types in the fleet file";
  Features features = parse_features(json_string_member(entry, "active_features"));
  node.gpu_vendor = features.vendor.empty() ? type->second.vendor : features.vendor;
  if (node.gpu_vendor != type->second.vendor)
    return "feature says " + node.gpu_vendor + " but GRES type " + gres[0].type + " is " + type->second.vendor;
  node.labels["slurm.gres_type"] = gres[0].type;
  node.gpu_model = type->second.model;
  node.gpu_family = type->second.family;
  node.gpu_class = type->second.gpu_class;
  node.gpu_arch = features.arch.empty() ? type->second.arch : features.arch;
  node.vram_gb = type->second.vram_gb;
  node.gpu_count = gres[0].count;
  node.runtime = features.runtime.empty() ? (node.gpu_vendor == "amd" ? "rocm" : "cuda") : features.runtime;
  node.runtime_version = features.runtime_version;
  int used = 0;
  for (const auto& in_use : parse_gpu_gres(json_string_member(entry, "gres_used"))) used += in_use.count;
  node.gpus_free = std::max(0, node.gpu_count - used);
  return "";
}

Result<SlurmNode> parse_node(const Json& entry, const SlurmGpuTypes& types) {
  std::string name = json_string_member(entry, "name");
  if (name.empty()) return make_error("INVALID_SLURM_OUTPUT", "sinfo --json: a node without a name");
  SlurmNode out;
  auto flags = json_string_list(entry.value("state_flags", Json::array()));
  std::string state = util::to_lower(json_string_member(entry, "state"));
  out.slurm_state = state_text(state, flags);
  model::Node& node = out.node;
  node.id = "node_slurm-" + name;
  node.name = name;
  node.source = "slurm";
  auto partitions = json_string_list(entry.value("partitions", Json::array()));
  node.pool = partitions.empty() ? "slurm" : partitions[0];
  std::string partition_list;
  for (const auto& partition : partitions) partition_list += (partition_list.empty() ? "" : ",") + partition;
  node.labels["slurm.partitions"] = partition_list;
  node.labels["slurm.features"] = json_string_member(entry, "active_features");
  out.unusable = describe_slurm_gpus(node, entry, types);
  if (!out.unusable.empty()) node.labels["slurm.unusable"] = out.unusable;
  node.status = out.unusable.empty() ? slurm_node_status(state, flags, node.gpus_free) : model::NodeStatus::offline;
  return out;
}

bool has_flag(const std::vector<std::string>& flags, std::initializer_list<std::string_view> wanted) {
  return std::any_of(flags.begin(), flags.end(), [&](const std::string& flag) {
    return std::find(wanted.begin(), wanted.end(), flag) != wanted.end();
  });
}

}  // namespace

const SlurmGpuTypes& builtin_slurm_gpu_types() {
  static const SlurmGpuTypes types{
      {"mi300x", {"amd", "MI300X", "instinct", "datacenter", "gfx942", 192}},
      {"mi325x", {"amd", "MI325X", "instinct", "datacenter", "gfx942", 256}},
      {"mi250", {"amd", "MI250", "instinct", "datacenter", "gfx90a", 64}},
      {"mi250x", {"amd", "MI250X", "instinct", "datacenter", "gfx90a", 64}},
      {"mi210", {"amd", "MI210", "instinct", "datacenter", "gfx90a", 64}},
      {"mi100", {"amd", "MI100", "instinct", "datacenter", "gfx908", 32}},
      {"w7900", {"amd", "Radeon PRO W7900", "radeon", "workstation", "gfx1100", 48}},
      {"rx7900xtx", {"amd", "Radeon RX 7900 XTX", "radeon", "consumer", "gfx1100", 24}},
      {"h100", {"nvidia", "H100", "hopper", "datacenter", "", 80}},
      {"a100", {"nvidia", "A100", "ampere", "datacenter", "", 80}},
      {"l4", {"nvidia", "L4", "ada", "datacenter", "", 24}},
  };
  return types;
}

model::NodeStatus slurm_node_status(const std::string& state, const std::vector<std::string>& flags, int gpus_free) {
  if (state == "down" || state == "fail" || state == "future" ||
      has_flag(flags, {"DOWN", "NOT_RESPONDING", "FAIL", "POWERED_DOWN", "POWERING_DOWN"}))
    return model::NodeStatus::offline;
  if (has_flag(flags, {"DRAIN", "DRAINING", "DRAINED"})) return model::NodeStatus::draining;
  if (state == "idle") return model::NodeStatus::online;
  return gpus_free > 0 ? model::NodeStatus::online : model::NodeStatus::busy;
}

Result<std::vector<SlurmNode>> parse_sinfo_nodes(const std::string& sinfo_json, const SlurmGpuTypes& extra) {
  Json doc = Json::parse(sinfo_json, nullptr, false);
  if (doc.is_discarded() || !doc.is_object())
    return make_error("INVALID_SLURM_OUTPUT", "sinfo --json did not print a JSON object");
  auto nodes = doc.find("nodes");
  if (nodes == doc.end() || !nodes->is_array())
    return make_error("INVALID_SLURM_OUTPUT", "sinfo --json: no \"nodes\" array (Slurm 22.05 or later is needed)");
  SlurmGpuTypes types = extra;
  types.insert(builtin_slurm_gpu_types().begin(), builtin_slurm_gpu_types().end());  // extra wins
  std::vector<SlurmNode> out;
  for (const auto& entry : *nodes) {
    if (!entry.is_object()) return make_error("INVALID_SLURM_OUTPUT", "sinfo --json: a node that is not an object");
    auto node = parse_node(entry, types);
    if (!node) return node.error();
    out.push_back(std::move(*node));
  }
  return out;
}

}  // namespace jgrid::exec
