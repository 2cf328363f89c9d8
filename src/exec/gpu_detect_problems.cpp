#include "exec/gpu_detect_problems.hpp"

#include <array>
#include <filesystem>
#include <map>
#include <sstream>

namespace jgrid::exec {
namespace {

namespace fs = std::filesystem;

using Lines = std::vector<std::string>;
using Check = void (*)(const LocalGpuReport&, const GpuDetectRoots&, const DetectFacts&, Lines&);

const std::string k_optional_hint = "or run with --local-gpu-optional to run containers without GPU devices";

std::string nodes_dir(const GpuDetectRoots& roots) { return (roots.sysfs / "class/kfd/kfd/topology/nodes").string(); }

void check_vendor(const LocalGpuReport& report, const GpuDetectRoots& roots, const DetectFacts& facts, Lines& out) {
  if (facts.amd_cards > 0 || !report.gpus.empty() || facts.other_vendors.empty()) return;
  out.push_back("only non-AMD GPUs found (" + facts.other_vendors + ") under " + (roots.sysfs / "class/drm").string() +
                ": the local ROCm executor needs an AMD GPU; use the simulated fleet, " + k_optional_hint);
}

void check_kfd(const LocalGpuReport& report, const GpuDetectRoots&, const DetectFacts& facts, Lines& out) {
  if (report.kfd_present) return;
  if (facts.amd_cards > 0 || !report.gpus.empty())
    out.push_back(report.kfd_path +
                  " is missing although an AMD GPU is present: load the amdgpu driver with KFD "
                  "(modprobe amdgpu) or, inside a container, pass --device /dev/kfd");
  else
    out.push_back(report.kfd_path +
                  " is missing: no AMD GPU driver (amdgpu) is loaded; install the ROCm amdgpu "
                  "driver on a machine with an AMD GPU, " +
                  k_optional_hint);
}

void check_topology(const LocalGpuReport& report, const GpuDetectRoots& roots, const DetectFacts& facts, Lines& out) {
  if (!report.kfd_present || !report.gpus.empty()) return;
  if (!facts.topology_found)
    out.push_back(nodes_dir(roots) +
                  " is missing: the amdgpu driver exposes no KFD topology; update it to the "
                  "one of a current ROCm release (amdgpu-dkms)");
  else
    out.push_back("no GPU agent in " + nodes_dir(roots) +
                  " (CPU nodes only): this GPU is not supported by the "
                  "loaded amdgpu driver; update the driver and check `dmesg | grep -i amdgpu`");
}

void check_render_nodes(const LocalGpuReport& report, const GpuDetectRoots&, const DetectFacts&, Lines& out) {
  for (const LocalGpu& gpu : report.gpus) {
    std::error_code error;
    if (gpu.render_node.empty())
      out.push_back("GPU " + std::to_string(gpu.index) + " (" + gpu.gfx_arch +
                    ") has no drm_render_minor in its "
                    "KFD topology: it cannot be attached to containers; update the amdgpu driver");
    else if (!fs::exists(gpu.render_node, error))
      out.push_back("GPU " + std::to_string(gpu.index) + " (" + gpu.gfx_arch + "): " + gpu.render_node +
                    " is missing: containers need it; check the amdgpu driver (ls -l /dev/dri) or pass /dev/dri in");
  }
}

std::string override_hint(const std::string& gfx_arch) {
  static const std::map<std::string, std::string> k_nearest{
      {"gfx1103", "11.0.0"}, {"gfx1035", "10.3.0"}, {"gfx1036", "10.3.0"}, {"gfx1033", "10.3.0"}};
  auto it = k_nearest.find(gfx_arch);
  return it == k_nearest.end() ? "check ROCm's support matrix for " + gfx_arch
                               : "a job may need HSA_OVERRIDE_GFX_VERSION=" + it->second;
}

std::string one_decimal(double value) {
  std::ostringstream text;
  text.precision(1);
  text << std::fixed << value;
  return text.str();
}

void check_integrated(const LocalGpuReport& report, const GpuDetectRoots&, const DetectFacts&, Lines& out) {
  for (const LocalGpu& gpu : report.gpus)
    if (gpu.integrated)
      out.push_back("GPU " + std::to_string(gpu.index) + " (" + gpu.name + ", " + gpu.gfx_arch +
                    ") is an integrated "
                    "GPU with " +
                    one_decimal(gpu.vram_gb) +
                    " GiB of dedicated memory: ROCm does not officially "
                    "support it; " +
                    override_hint(gpu.gfx_arch));
}

void check_groups(const LocalGpuReport& report, const GpuDetectRoots& roots, const DetectFacts&, Lines& out) {
  if (!report.usable()) return;
  std::string where = roots.etc.empty() ? "the group database" : (roots.etc / "group").string();
  for (auto [name, gid] : {std::pair<std::string, int>{"video", report.video_gid}, {"render", report.render_gid}})
    if (gid < 0)
      out.push_back("group " + name + " not found in " + where +
                    ": containers cannot be given access to the GPU "
                    "devices; create it (groupadd -r " +
                    name + ") and reload the amdgpu udev rules");
}

constexpr std::array<Check, 6> k_checks{check_vendor,       check_kfd,        check_topology,
                                        check_render_nodes, check_integrated, check_groups};

}  // namespace

std::vector<std::string> detection_problems(const LocalGpuReport& report, const GpuDetectRoots& roots,
                                            const DetectFacts& facts) {
  Lines lines;
  for (Check check : k_checks) check(report, roots, facts, lines);
  return lines;
}

std::vector<std::string> describe_report(const LocalGpuReport& report) {
  Lines lines;
  for (const LocalGpu& gpu : report.gpus)
    lines.push_back("GPU " + std::to_string(gpu.index) + ": " + gpu.name + " (" + gpu.gfx_arch + ", " +
                    one_decimal(gpu.vram_gb) + " GiB, " +
                    (gpu.render_node.empty() ? "no render node" : gpu.render_node) + ")");
  if (report.gpus.empty()) lines.push_back("no AMD GPU detected");
  if (!report.rocm_version.empty()) lines.push_back("ROCm " + report.rocm_version + " installed");
  for (const auto& problem : report.problems) lines.push_back("problem: " + problem);
  return lines;
}

}  // namespace jgrid::exec
