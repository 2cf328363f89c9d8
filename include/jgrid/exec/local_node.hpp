#pragma once
// The workstation itself as a node of the grid (docs/rocm.md §4): its AMD GPUs as
// detection found them, run by the local container executor, and the images
// its container engine already has (for screening on submit without a pull).
#include <optional>
#include <string>
#include <vector>

#include "jgrid/exec/fleet.hpp"
#include "jgrid/exec/gpu_detect.hpp"
#include "jgrid/model/node.hpp"

namespace jgrid::exec {

inline constexpr const char* k_local_node_id = "node_local";

struct LocalNodeOptions {
  std::string engine = "podman";  // engine kind, shown in labels
  bool gpu_optional = false;      // list the node even without a usable GPU
  int gpu_slots = 1;              // GPU slots of a node without GPU (gpu_optional)
  std::string host;               // machine name for the node name; "" = "local"
};

// The local node: source "local", AMD/ROCm, pool and region "local", price 0;
// gpu_count = detected GPUs, model/family/class/arch of GPU 0, vram_gb the
// smallest GPU's; labels engine=<engine> and gpu_name=<marketing name>.
// Without a usable GPU: nullopt, unless options.gpu_optional, then a node of
// gpu_slots slots with gpu_model "no-gpu" (its containers get no devices).
std::optional<model::Node> make_local_node(const LocalGpuReport& report, const LocalNodeOptions& options);

// One line for the banner and doctor: "AMD Instinct MI300X ×8 (gfx942, 192
// GiB each), ROCm 6.2.4, podman", or "no AMD GPU: containers get no devices
// (1 slot), podman" for a gpu_optional node.
std::string describe_local_node(const model::Node& node, const LocalGpuReport& report);

// What `<engine> image inspect` says about every image the engine holds,
// as fleet catalog entries (one per tag; never pulls, one engine call for
// the list and one for the inspection). Empty when the engine fails.
std::vector<ImageInfo> local_image_catalog(const std::string& engine);

// For `doctor`: runs `<engine> run --rm <engine_args…> <image> true` and
// returns "" when it exited 0, else the engine's error line.
std::string try_container(const std::string& engine, const std::vector<std::string>& engine_args,
                          const std::string& image);

// True when `program` is an executable on PATH.
bool program_on_path(const std::string& program);

}  // namespace jgrid::exec
