#include "jgrid/exec/fleet.hpp"

#include <algorithm>
#include <filesystem>

#include "jgrid/util/files.hpp"
#include "jgrid/util/strings.hpp"

namespace jgrid::exec {
namespace {

Error invalid_fleet(const std::string& path, const std::string& problem) {
  return make_error("INVALID_FLEET", path + ": " + problem, nlohmann::json{{"file", path}});
}

// nlohmann's messages start with "[json.exception.parse_error.101] ".
std::string parse_problem(const std::exception& error) {
  std::string text = error.what();
  auto end = text.find("] ");
  return end == std::string::npos ? text : text.substr(end + 2);
}

struct Group {
  std::string label;  // "AMD MI300X"
  int nodes = 0;
  long long gpus = 0;
};

std::string plural(long long count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

}  // namespace

const ImageInfo* Fleet::find_image(const std::string& ref) const {
  auto it = std::find_if(images.begin(), images.end(), [&](const ImageInfo& image) { return image.ref == ref; });
  return it == images.end() ? nullptr : &*it;
}

Result<Fleet> load_fleet_file(const std::string& path) {
  std::string extension = util::to_lower(std::filesystem::path(path).extension().string());
  if (extension == ".yaml" || extension == ".yml")
    return invalid_fleet(path, "YAML fleet files need a build with yaml-cpp; use JSON");
  auto text = util::read_file(path);
  if (!text.ok()) return make_error("INVALID_FLEET", text.error().message, nlohmann::json{{"file", path}});
  try {
    return parse_fleet(nlohmann::json::parse(text.value()), path);
  } catch (const nlohmann::json::parse_error& error) {
    return invalid_fleet(path, "not valid JSON: " + parse_problem(error));
  }
}

std::string fleet_summary(const Fleet& fleet) {
  if (fleet.nodes.empty()) return "no nodes";
  std::vector<Group> groups;
  long long total_gpus = 0;
  for (const auto& node : fleet.nodes) {
    std::string label = model::vendor_display(node.gpu_vendor) + " " + node.gpu_model;
    auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& group) { return group.label == label; });
    if (it == groups.end()) it = groups.insert(groups.end(), Group{label});
    it->nodes += 1;
    it->gpus += node.gpu_count;
    total_gpus += node.gpu_count;
  }
  std::string out;
  for (const auto& group : groups)
    out += (out.empty() ? "" : ", ") + std::to_string(group.nodes) + "× " + group.label + " (" +
           plural(group.gpus, "GPU") + ")";
  return out + "; " + plural(static_cast<long long>(fleet.nodes.size()), "node") + ", " + plural(total_gpus, "GPU");
}

}  // namespace jgrid::exec
