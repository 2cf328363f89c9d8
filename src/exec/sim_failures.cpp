#include "exec/sim_failures.hpp"

#include <algorithm>
#include <functional>
#include <map>

namespace jgrid::exec {
namespace {

using Lines = std::function<SimFailure(const model::Node&)>;

std::string arch_of(const model::Node& node) { return node.gpu_arch.empty() ? "gfx942" : node.gpu_arch; }

const std::vector<std::pair<std::string, Lines>>& table() {
  static const std::vector<std::pair<std::string, Lines>> rows = {
      {"rocm_userspace_missing",
       [](const model::Node&) {
         return SimFailure{"rocm_userspace_missing", 1,
                           {"Traceback (most recent call last):", "  File \"/workspace/scripts/run.py\", line 1, in <module>",
                            "ImportError: libamdhip64.so.6: cannot open shared object file: No such file or directory"}};
       }},
      {"no_gpu_visible",
       [](const model::Node&) {
         return SimFailure{"no_gpu_visible", 1, {"RuntimeError: No HIP GPUs are available"}};
       }},
      {"gpu_isa_unsupported",
       [](const model::Node& node) {
         return SimFailure{"gpu_isa_unsupported", 134,
                           {"rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: Illegal seek "
                            "for GPU arch : " + arch_of(node),
                            "\"hipErrorNoBinaryForGpu: Unable to find code object for all current devices!\"",
                            "Aborted (core dumped)"}};
       }},
      {"gpu_device_permission",
       [](const model::Node&) {
         return SimFailure{"gpu_device_permission", 1,
                           {"Unable to open /dev/kfd read-write: Permission denied",
                            "RuntimeError: No HIP GPUs are available"}};
       }},
      {"hip_out_of_memory",
       [](const model::Node& node) {
         std::string total = std::to_string(static_cast<long long>(node.vram_gb > 0 ? node.vram_gb : 64));
         return SimFailure{"hip_out_of_memory", 1,
                           {"torch.OutOfMemoryError: HIP out of memory. Tried to allocate 3.31 GiB. GPU 0 has a total "
                            "capacity of " + total + ".00 GiB of which 780.24 MiB is free."}};
       }},
      {"cuda_on_amd",
       [](const model::Node&) {
         return SimFailure{"cuda_on_amd", 1,
                           {"RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA "
                            "GPU and installed a driver from http://www.nvidia.com/Download/index.aspx"}};
       }},
      {"oom_killed", [](const model::Node&) { return SimFailure{"oom_killed", 137, {"Killed"}}; }},
  };
  return rows;
}

}  // namespace

const std::vector<std::string>& sim_failure_effects() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& [name, lines] : table()) out.push_back(name);
    return out;
  }();
  return names;
}

std::optional<SimFailure> sim_failure(const std::string& effect, const model::Node& node) {
  const auto& rows = table();
  auto it = std::find_if(rows.begin(), rows.end(), [&](const auto& row) { return row.first == effect; });
  if (it == rows.end()) return std::nullopt;
  return it->second(node);
}

}  // namespace jgrid::exec
