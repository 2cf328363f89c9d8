#pragma once
// Fleet description: simulated nodes and the offline image catalog (sim.md §1).
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "jgrid/model/node.hpp"
#include "jgrid/util/result.hpp"

namespace jgrid::exec {

// What `image inspect` would say about an image, known without pulling it.
struct ImageInfo {
  std::string ref;
  std::map<std::string, std::string> labels;
  std::map<std::string, std::string> env;
  std::string digest;
  double size_mb = 500;
  nlohmann::json sim;  // default fake-run behaviour for jobs on this image, or null
};

struct Fleet {
  std::uint64_t seed = 42;
  std::string clock_mode = "real";  // sim.md §3: "real" or "virtual"
  double clock_scale = 1.0;         // clock ms per real ms (real mode)
  std::vector<model::Node> nodes;  // pools expanded: one Node per node
  std::vector<ImageInfo> images;

  // The catalog entry for `ref` (exact match), or nullptr.
  const ImageInfo* find_image(const std::string& ref) const;
};

// The fleet used when `--fleet` is not given: AMD Instinct and Radeon nodes,
// NVIDIA nodes, two regions, different prices.
Fleet default_fleet();

// Parses a fleet document (sim.md §1 shape, JSON). Errors INVALID_FLEET with
// "<source>: <path>: expected …" (e.g. "fleet.json: pools[1].gpu.count:
// expected an integer >= 1").
Result<Fleet> parse_fleet(const nlohmann::json& doc, const std::string& source);

// Reads and parses a fleet file (.json; YAML is reported as unsupported).
// Errors INVALID_FLEET (unreadable, not JSON, invalid content).
Result<Fleet> load_fleet_file(const std::string& path);

// "4× AMD MI300X (32 GPUs), 2× AMD Radeon PRO W7900 (2 GPUs); 6 nodes,
// 34 GPUs" for the banner: nodes per vendor and model in fleet order, with
// their GPU totals. "no nodes" for an empty fleet.
std::string fleet_summary(const Fleet& fleet);

}  // namespace jgrid::exec
