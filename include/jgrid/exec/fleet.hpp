#pragma once
// Fleet description: simulated nodes and the offline image catalog (docs/simulation.md §1).
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "jgrid/exec/slurm_executor.hpp"
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
  std::string source = "catalog";  // "catalog" (fleet file) or "local" (this machine's container engine)
};

// Failure rates of one pool (docs/simulation.md §4, set in the fleet file's `faults`).
// Rates are probabilities per run; *_per_hour are Poisson rates per hour of
// run time. All default to 0 (no faults).
struct PoolFaults {
  double node_lost_per_hour = 0;
  double ecc_error_per_hour = 0;
  double preempt_per_hour = 0;
  double start_error_rate = 0;
  double image_pull_failure_rate = 0;
  double exit_code_rate = 0;
  int exit_code = 1;              // the code of an exit_code fault
  double oom_rate = 0;
  double slow_rate = 0;
  double slow_factor = 2.0;       // durations × this on a slow run
  bool any() const;
};

struct Fleet {
  std::uint64_t seed = 42;
  std::string clock_mode = "real";  // docs/simulation.md §3: "real" or "virtual"
  double clock_scale = 1.0;         // clock ms per real ms (real mode)
  std::vector<model::Node> nodes;  // pools expanded: one Node per node
  std::vector<ImageInfo> images;
  std::map<std::string, PoolFaults> faults;  // by pool name; pools without faults are absent
  // The `slurm` section: the nodes of a Slurm cluster join the fleet
  // (`serve` reads them at start). A file with it may leave out `pools`.
  std::optional<SlurmOptions> slurm;
  // The file held neither `pools` nor `slurm` (only `images`, say):
  // load_fleet_files adds its images to the built-in fleet.
  bool images_only = false;
  // `screening.unknown_stack: any`: GPU jobs with no ROCm evidence and
  // nothing CUDA-only may use any vendor. Default false: NVIDIA only, as the
  // ROCm contract wants (AMD capacity only with ROCm evidence).
  bool unknown_stack_any_vendor = false;

  // The catalog entry for `ref` (exact match), or nullptr.
  const ImageInfo* find_image(const std::string& ref) const;
};

// The fleet used when `--fleet` is not given: AMD Instinct and Radeon nodes,
// NVIDIA nodes, two regions, different prices.
Fleet default_fleet();

// Parses a fleet document (docs/simulation.md §1 shape, JSON). Errors INVALID_FLEET with
// "<source>: <path>: expected …" (e.g. "fleet.json: pools[1].gpu.count:
// expected an integer >= 1").
Result<Fleet> parse_fleet(const nlohmann::json& doc, const std::string& source);

// Reads and parses a fleet file: YAML (.yaml, .yml) or JSON (anything else).
// Errors INVALID_FLEET (unreadable, not YAML/JSON with line and column,
// invalid content naming the path inside the file).
Result<Fleet> load_fleet_file(const std::string& path);

// Loads several fleet files into one fleet: pools and images in file order;
// seed, clock and screening from the first file, the slurm section from the first that has one.
// When no file has pools or a slurm section, the built-in fleet's nodes come
// with them, and their images add to its catalog (replacing an entry of the
// same reference): a file of `images` only extends the built-in fleet. Errors INVALID_FLEET as above, or a
// pool name / image reference given by two files ("b.yaml: pools[0].name:
// expected a unique pool name (a.yaml has it already)"). Nothing is
// returned half-loaded.
Result<Fleet> load_fleet_files(const std::vector<std::string>& paths);

// "4× AMD MI300X (32 GPUs), 2× AMD Radeon PRO W7900 (2 GPUs); 6 nodes,
// 34 GPUs" for the banner: nodes per vendor and model in fleet order, with
// their GPU totals. "no nodes" for an empty fleet.
std::string fleet_summary(const Fleet& fleet);

}  // namespace jgrid::exec
