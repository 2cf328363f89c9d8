#pragma once
// The problem lines of a GPU detection (each names what is wrong and the fix).
#include <string>
#include <vector>

#include "jgrid/exec/gpu_detect.hpp"

namespace jgrid::exec {

// What detection saw besides the report itself.
struct DetectFacts {
  int amd_cards = 0;            // DRM cards with PCI vendor 0x1002
  std::string other_vendors;    // "NVIDIA 0x10de" when other cards exist
  bool topology_found = false;  // <sysfs>/class/kfd/kfd/topology/nodes exists
};

std::vector<std::string> detection_problems(const LocalGpuReport& report, const GpuDetectRoots& roots,
                                            const DetectFacts& facts);

}  // namespace jgrid::exec
