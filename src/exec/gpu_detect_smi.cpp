#include "exec/gpu_detect_smi.hpp"

#include <nlohmann/json.hpp>

#include "exec/container_process.hpp"
#include "jgrid/util/strings.hpp"

namespace jgrid::exec {
namespace {

using Json = nlohmann::json;

constexpr std::chrono::seconds k_smi_timeout{20};

Json parse_or_null(const std::string& text) { return Json::parse(text, nullptr, false); }

// The value of the first member whose lower-cased key is `key`.
const Json* member_ci(const Json& object, const std::string& key) {
  for (const auto& [name, value] : object.items())
    if (util::to_lower(name) == key) return &value;
  return nullptr;
}

std::map<int, std::string> names_from(const std::string& program, const std::vector<std::string>& args,
                                      std::map<int, std::string> (*parse)(const std::string&)) {
  if (!on_path(program)) return {};
  std::vector<std::string> argv{program};
  argv.insert(argv.end(), args.begin(), args.end());
  auto result = run_command(argv, k_smi_timeout);
  if (!result.ok() || result->exit_code != 0) return {};
  return parse(result->out);
}

}  // namespace

std::map<int, std::string> parse_amd_smi_names(const std::string& json_text) {
  Json doc = parse_or_null(json_text);
  if (doc.is_object() && doc.contains("gpu_data")) doc = doc["gpu_data"];
  std::map<int, std::string> names;
  if (!doc.is_array()) return names;
  for (const Json& entry : doc) {
    if (!entry.is_object() || !entry.contains("gpu") || !entry["gpu"].is_number_integer()) continue;
    const Json* asic = entry.contains("asic") ? &entry["asic"] : nullptr;
    if (asic && asic->is_object() && asic->contains("market_name") && (*asic)["market_name"].is_string())
      names[entry["gpu"].get<int>()] = util::trim((*asic)["market_name"].get<std::string>());
  }
  return names;
}

std::map<int, std::string> parse_rocm_smi_names(const std::string& json_text) {
  Json doc = parse_or_null(json_text);
  std::map<int, std::string> names;
  if (!doc.is_object()) return names;
  for (const auto& [key, card] : doc.items()) {
    auto index = key.rfind("card", 0) == 0 ? util::parse_int(key.substr(4)) : std::nullopt;
    const Json* series = card.is_object() ? member_ci(card, "card series") : nullptr;
    if (index && series && series->is_string())
      names[static_cast<int>(*index)] = util::trim(series->get<std::string>());
  }
  return names;
}

void enrich_with_smi(LocalGpuReport& report) {
  if (report.gpus.empty()) return;
  auto names = names_from("amd-smi", {"static", "--asic", "--json"}, parse_amd_smi_names);
  if (names.empty()) names = names_from("rocm-smi", {"--showproductname", "--json"}, parse_rocm_smi_names);
  for (LocalGpu& gpu : report.gpus) {
    auto it = names.find(gpu.index);
    if (it != names.end() && !it->second.empty()) gpu.name = it->second;
  }
}

}  // namespace jgrid::exec
