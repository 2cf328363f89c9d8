#include "jgrid/exec/local_node.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "exec/container_engine.hpp"
#include "exec/container_process.hpp"
#include "jgrid/util/strings.hpp"

namespace jgrid::exec {
namespace {

using Json = nlohmann::json;

constexpr std::chrono::seconds k_catalog_timeout{30};

void describe_gpus(model::Node& node, const LocalGpuReport& report) {
  const LocalGpu& first = report.gpus.front();
  node.gpu_model = first.model;
  node.gpu_family = first.family;
  node.gpu_class = first.gpu_class;
  node.gpu_arch = first.gfx_arch;
  node.gpu_count = static_cast<int>(report.gpus.size());
  node.vram_gb = first.vram_gb;
  for (const auto& gpu : report.gpus) node.vram_gb = std::min(node.vram_gb, gpu.vram_gb);
  node.labels["gpu_name"] = first.name;
}

std::string vram_one_decimal(double value) {
  std::string text = std::to_string(std::round(value * 10) / 10);
  text.erase(text.find_last_not_of('0') + 1);
  if (!text.empty() && text.back() == '.') text.pop_back();
  return text;
}

}  // namespace

std::optional<model::Node> make_local_node(const LocalGpuReport& report, const LocalNodeOptions& options) {
  if (!report.usable() && !options.gpu_optional) return std::nullopt;
  model::Node node;
  node.id = k_local_node_id;
  node.name = options.host.empty() ? "local" : "local-" + options.host;
  node.pool = "local";
  node.source = "local";
  node.gpu_vendor = "amd";
  node.runtime = "rocm";
  node.runtime_version = report.rocm_version;
  node.region = "local";
  node.price_per_gpu_hour = 0;
  node.labels["engine"] = options.engine;
  if (report.usable()) {
    describe_gpus(node, report);
  } else {
    node.gpu_model = "no-gpu";
    node.gpu_count = std::max(options.gpu_slots, 1);
    node.labels["gpu_name"] = "none (containers get no devices)";
  }
  node.gpus_free = node.gpu_count;
  return node;
}

std::string describe_local_node(const model::Node& node, const LocalGpuReport& report) {
  std::string engine = node.labels.count("engine") ? node.labels.at("engine") : "";
  if (node.gpu_model == "no-gpu")
    return "no AMD GPU: containers get no devices (" + std::to_string(node.gpu_count) + " slot" +
           (node.gpu_count == 1 ? "" : "s") + "), " + engine;
  std::string text = node.labels.at("gpu_name") + " x" + std::to_string(node.gpu_count) + " (" + node.gpu_arch + ", " +
                     vram_one_decimal(node.vram_gb) + " GiB each)";
  if (!report.rocm_version.empty()) text += ", ROCm " + report.rocm_version;
  return text + ", " + engine;
}

std::vector<ImageInfo> local_image_catalog(const std::string& engine) {
  auto ids = run_command({engine, "images", "-q", "--no-trunc"}, k_catalog_timeout);
  if (!ids.ok() || ids->exit_code != 0) return {};
  std::vector<std::string> argv{engine, "image", "inspect", "--"};
  for (const auto& id : util::split(ids->out, '\n'))
    if (!util::trim(id).empty() && std::find(argv.begin(), argv.end(), util::trim(id)) == argv.end())
      argv.push_back(util::trim(id));
  if (argv.size() == 4) return {};
  auto inspected = run_command(argv, k_catalog_timeout);
  if (!inspected.ok() || inspected->exit_code != 0) return {};
  Json doc = Json::parse(inspected->out, nullptr, false);
  std::vector<ImageInfo> catalog;
  if (!doc.is_array()) return catalog;
  for (const Json& item : doc) {
    auto image = parse_image_inspect(item.dump(), "");
    if (!image || !item.contains("RepoTags") || !item["RepoTags"].is_array()) continue;
    double size_mb = item.contains("Size") && item["Size"].is_number() ? item["Size"].get<double>() / 1e6 : 0;
    for (const Json& tag : item["RepoTags"])
      if (tag.is_string()) catalog.push_back(ImageInfo{tag.get<std::string>(), image->labels, image->env, image->digest,
                                                       size_mb, nullptr, "local"});
  }
  return catalog;
}

std::string try_container(const std::string& engine, const std::vector<std::string>& engine_args,
                          const std::string& image) {
  std::vector<std::string> argv{engine, "run", "--rm"};
  argv.insert(argv.end(), engine_args.begin(), engine_args.end());
  argv.insert(argv.end(), {"--", image, "true"});
  auto ran = run_command(argv, std::chrono::seconds(120));
  if (!ran.ok()) return ran.error().message;
  if (ran->exit_code == 0) return "";
  std::string line = ran->last_error_line();
  return ran->timed_out ? "timed out" : "exit " + std::to_string(ran->exit_code) + (line.empty() ? "" : ": " + line);
}

bool program_on_path(const std::string& program) { return on_path(program); }

}  // namespace jgrid::exec
