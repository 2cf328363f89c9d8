#include "jgrid/exec/fleet.hpp"

#include <algorithm>
#include <filesystem>

#include "exec/fleet_yaml.hpp"
#include "jgrid/exec/fleet_document.hpp"
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

// `files` (that hold no pools) on top of `builtin`.
Fleet over_builtin(Fleet files, Fleet builtin) {
  files.nodes = std::move(builtin.nodes);
  files.faults = std::move(builtin.faults);
  for (auto& image : builtin.images)
    if (!files.find_image(image.ref)) files.images.push_back(std::move(image));
  files.images_only = false;
  return files;
}

std::string plural(long long count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

}  // namespace

const ImageInfo* Fleet::find_image(const std::string& ref) const {
  auto it = std::find_if(images.begin(), images.end(), [&](const ImageInfo& image) { return image.ref == ref; });
  return it == images.end() ? nullptr : &*it;
}

bool PoolFaults::any() const {
  return node_lost_per_hour > 0 || ecc_error_per_hour > 0 || preempt_per_hour > 0 || start_error_rate > 0 ||
         image_pull_failure_rate > 0 || exit_code_rate > 0 || oom_rate > 0 || slow_rate > 0;
}

Result<nlohmann::json> read_fleet_file(const std::string& path) {
  std::string extension = util::to_lower(std::filesystem::path(path).extension().string());
  auto text = util::read_file(path);
  if (!text.ok()) return make_error("INVALID_FLEET", text.error().message, nlohmann::json{{"file", path}});
  if (extension == ".yaml" || extension == ".yml") return yaml_to_json(text.value(), path);
  try {
    return nlohmann::json::parse(text.value());
  } catch (const nlohmann::json::exception& error) {  // parse_error, or out_of_range for a number like 1e999
    return invalid_fleet(path, "not valid JSON: " + parse_problem(error));
  }
}

Result<Fleet> load_fleet_file(const std::string& path) {
  auto doc = read_fleet_file(path);
  if (!doc.ok()) return doc.error();
  return parse_fleet(doc.value(), path);
}

Result<Fleet> load_fleet_files(const std::vector<std::string>& paths) {
  auto document = read_fleet_document(paths);
  if (!document.ok()) return document.error();
  return build_fleet(document.value());
}

static Result<Fleet> merge_fleets(std::vector<std::pair<std::string, Fleet>> fleets) {
  if (fleets.size() == 1) return std::move(fleets[0].second);
  Fleet merged;
  merged.images_only = true;
  std::map<std::string, std::string> pool_files, image_files;  // name -> file that gave it
  for (std::size_t f = 0; f < fleets.size(); ++f) {
    auto& [path, fleet] = fleets[f];
    if (f == 0) {
      merged.seed = fleet.seed;
      merged.clock_mode = fleet.clock_mode;
      merged.clock_scale = fleet.clock_scale;
      merged.unknown_stack_any_vendor = fleet.unknown_stack_any_vendor;
    }
    if (!merged.slurm) merged.slurm = fleet.slurm;
    for (std::size_t i = 0; i < fleet.images.size(); ++i) {
      auto [it, fresh] = image_files.emplace(fleet.images[i].ref, path);
      if (!fresh)
        return invalid_fleet(path, "images[" + std::to_string(i) + "].ref: expected a unique image reference (" +
                                       it->second + " has it already)");
      merged.images.push_back(std::move(fleet.images[i]));
    }
    std::string last_pool;
    for (auto& node : fleet.nodes) {
      if (node.pool != last_pool) {
        auto [it, fresh] = pool_files.emplace(node.pool, path);
        if (!fresh)
          return invalid_fleet(path, "pool " + node.pool + ": expected a unique pool name (" + it->second +
                                         " has it already)");
        last_pool = node.pool;
      }
      merged.nodes.push_back(std::move(node));
    }
    merged.faults.insert(fleet.faults.begin(), fleet.faults.end());
    merged.images_only = merged.images_only && fleet.images_only;
  }
  return merged;
}

Result<Fleet> build_fleet(const FleetDocument& document) {
  std::vector<std::pair<std::string, Fleet>> files;
  std::optional<Fleet> builtin;
  for (const auto& source : document.sources) {
    auto fleet = parse_fleet(source.doc, source.name);
    if (!fleet.ok()) return fleet.error();
    if (source.builtin) builtin = std::move(fleet.value());
    else files.emplace_back(source.name, std::move(fleet.value()));
  }
  if (files.empty()) return builtin ? std::move(*builtin) : Fleet{};
  auto merged = merge_fleets(std::move(files));
  if (merged.ok() && merged->images_only && builtin) return over_builtin(std::move(merged.value()), std::move(*builtin));
  return merged;
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
