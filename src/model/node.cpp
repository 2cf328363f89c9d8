#include "jgrid/model/node.hpp"

#include <array>

#include "jgrid/util/strings.hpp"
#include "jgrid/util/time.hpp"

namespace jgrid::model {
namespace {

constexpr std::array<std::string_view, 4> k_node_status_names = {"online", "busy", "draining", "offline"};

std::string upper(std::string text) {
  for (char& c : text)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return text;
}

}  // namespace

std::string_view to_string(NodeStatus status) { return k_node_status_names[static_cast<std::size_t>(status)]; }

std::string vendor_display(const std::string& vendor) {
  std::string lower = util::to_lower(vendor);
  if (lower == "amd") return "AMD";
  if (lower == "nvidia") return "NVIDIA";
  return upper(vendor);
}

std::string runtime_display(const std::string& runtime, const std::string& version) {
  std::string lower = util::to_lower(runtime);
  std::string name = lower == "rocm" ? "ROCm" : lower == "cuda" ? "CUDA" : runtime;
  return version.empty() ? name : name + " " + version;
}

std::string runtime_display(const Node& node) { return runtime_display(node.runtime, node.runtime_version); }

nlohmann::json node_to_api(const Node& node) {
  nlohmann::json out = {{"node_id", node.id},
                        {"id", node.id},
                        {"name", node.name},
                        {"pool", node.pool},
                        {"source", node.source},
                        {"status", to_string(node.status)},
                        {"gpu_vendor", node.gpu_vendor},
                        {"runtime", node.runtime},
                        {"runtime_version", node.runtime_version},
                        {"gpu_model", node.gpu_model},
                        {"gpu_family", node.gpu_family},
                        {"gpu_class", node.gpu_class},
                        {"gpu_arch", node.gpu_arch},
                        {"gpu_count", node.gpu_count},
                        {"gpus_free", node.gpus_free},
                        {"vram_gb", node.vram_gb},
                        {"region", node.region},
                        {"price_per_gpu_hour", node.price_per_gpu_hour},
                        {"labels", node.labels},
                        {"running_jobs", node.running_jobs}};
  // Unknown strings are omitted rather than sent empty (docs/api.md §1.1).
  for (const char* key : {"pool", "gpu_arch", "gpu_family", "gpu_class", "region", "runtime_version"})
    if (out[key].get<std::string>().empty()) out.erase(key);
  if (node.last_heartbeat_ms > 0) out["last_heartbeat_at"] = util::format_time(node.last_heartbeat_ms);
  return out;
}

}  // namespace jgrid::model
