#include "jgrid/exec/gpu_detect.hpp"

#include <grp.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "exec/gpu_detect_problems.hpp"
#include "exec/gpu_detect_smi.hpp"
#include "exec/gpu_detect_tables.hpp"
#include "jgrid/util/strings.hpp"

namespace jgrid::exec {
namespace {

namespace fs = std::filesystem;

// KFD memory heap types of a GPU's own memory (public and private frame buffer).
constexpr std::uint64_t k_heap_fb_public = 1;
constexpr std::uint64_t k_heap_fb_private = 2;
constexpr int k_amd_vendor = 0x1002;

struct Agent {
  int node = 0;
  fs::path dir;
  Properties props;
};

struct DrmScan {
  int amd_cards = 0;
  std::vector<std::string> other_vendors;  // "0x10de", one per card
};

fs::path topology_nodes(const fs::path& sysfs) { return sysfs / "class/kfd/kfd/topology/nodes"; }

// Topology nodes in numeric order: ROCm numbers GPU agents in that order.
std::vector<Agent> read_agents(const fs::path& nodes_dir) {
  std::vector<Agent> agents;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(nodes_dir, error)) {
    auto node = util::parse_int(entry.path().filename().string());
    auto text = read_text_file(entry.path() / "properties");
    if (!node || !text) continue;
    agents.push_back({static_cast<int>(*node), entry.path(), parse_properties(*text)});
  }
  std::sort(agents.begin(), agents.end(), [](const Agent& a, const Agent& b) { return a.node < b.node; });
  return agents;
}

std::uint64_t vram_bytes(const Agent& agent) {
  std::uint64_t total = 0;
  std::error_code error;
  for (const auto& bank : fs::directory_iterator(agent.dir / "mem_banks", error)) {
    auto text = read_text_file(bank.path() / "properties");
    if (!text) continue;
    Properties props = parse_properties(*text);
    auto heap = property_u64(props, "heap_type");
    if (heap && (*heap == k_heap_fb_public || *heap == k_heap_fb_private))
      total += property_u64(props, "size_in_bytes").value_or(0);
  }
  return total > 0 ? total : property_u64(agent.props, "local_mem_size").value_or(0);
}

LocalGpu make_gpu(const Agent& agent, int index, const fs::path& dev) {
  LocalGpu gpu;
  gpu.index = index;
  gpu.topology_node = agent.node;
  gpu.gfx_arch = gfx_arch_name(static_cast<unsigned>(property_u64(agent.props, "gfx_target_version").value_or(0)));
  gpu.device_id = static_cast<int>(property_u64(agent.props, "device_id").value_or(0));
  GpuModel model = gpu_model_for(gpu.device_id, gpu.gfx_arch);
  gpu.model = model.model;
  gpu.family = model.family;
  gpu.gpu_class = model.gpu_class;
  gpu.name = marketing_name(gpu.device_id, gpu.gfx_arch);
  gpu.integrated = is_integrated_arch(gpu.gfx_arch);
  gpu.vram_gb = bytes_to_gib(vram_bytes(agent));
  if (auto minor = property_u64(agent.props, "drm_render_minor"); minor && *minor > 0) {
    gpu.render_minor = static_cast<int>(*minor);
    gpu.render_node = (dev / "dri" / ("renderD" + std::to_string(gpu.render_minor))).string();
  }
  return gpu;
}

std::vector<LocalGpu> read_gpus(const fs::path& sysfs, const fs::path& dev) {
  std::vector<LocalGpu> gpus;
  for (const Agent& agent : read_agents(topology_nodes(sysfs)))
    if (property_u64(agent.props, "gfx_target_version").value_or(0) != 0)
      gpus.push_back(make_gpu(agent, static_cast<int>(gpus.size()), dev));
  return gpus;
}

DrmScan scan_drm(const fs::path& sysfs) {
  DrmScan scan;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(sysfs / "class/drm", error)) {
    std::string name = entry.path().filename().string();
    if (name.rfind("card", 0) != 0 || name.find('-') != std::string::npos) continue;  // card1-DP-1 is a connector
    auto vendor = read_text_file(entry.path() / "device/vendor");
    if (!vendor) continue;
    std::string id = util::to_lower(util::trim(*vendor));
    if (std::strtol(id.c_str(), nullptr, 16) == k_amd_vendor)
      ++scan.amd_cards;
    else
      scan.other_vendors.push_back(id);
  }
  return scan;
}

int system_group_gid(const std::string& name) {
  group entry{};
  group* found = nullptr;
  std::vector<char> buffer(16 * 1024);
  if (::getgrnam_r(name.c_str(), &entry, buffer.data(), buffer.size(), &found) != 0 || !found) return -1;
  return static_cast<int>(found->gr_gid);
}

int group_gid(const GpuDetectRoots& roots, const std::string& name) {
  if (roots.etc.empty()) return system_group_gid(name);
  auto text = read_text_file(roots.etc / "group");
  return text ? group_id_in(*text, name) : -1;
}

std::string read_rocm_version(const fs::path& rocm) {
  auto text = read_text_file(rocm / ".info/version");
  if (!text) return "";
  std::string version = util::trim(*text);
  return version.substr(0, version.find('-'));  // "6.2.4-120": the build number is noise here
}

std::string vendor_names(const std::vector<std::string>& ids) {
  std::string text;
  for (const auto& id : ids) {
    std::string name = id == "0x10de" ? "NVIDIA " + id : id == "0x8086" ? "Intel " + id : id;
    if (text.find(name) == std::string::npos) text += (text.empty() ? "" : ", ") + name;
  }
  return text;
}

}  // namespace

LocalGpuReport detect_local_gpus(const GpuDetectRoots& roots) {
  LocalGpuReport report;
  report.kfd_path = (roots.dev / "kfd").string();
  std::error_code error;
  report.kfd_present = fs::exists(roots.dev / "kfd", error);
  report.gpus = read_gpus(roots.sysfs, roots.dev);
  report.rocm_version = read_rocm_version(roots.rocm);
  report.video_gid = group_gid(roots, "video");
  report.render_gid = group_gid(roots, "render");
  if (roots.run_smi) enrich_with_smi(report);
  DrmScan drm = scan_drm(roots.sysfs);
  bool topology_found = fs::is_directory(topology_nodes(roots.sysfs), error);
  report.problems = detection_problems(report, roots, {drm.amd_cards, vendor_names(drm.other_vendors), topology_found});
  return report;
}

LocalGpuReport detect_local_gpus(const fs::path& sysfs_root, const fs::path& dev_root) {
  GpuDetectRoots roots;
  roots.sysfs = sysfs_root;
  roots.dev = dev_root;
  roots.run_smi = sysfs_root == fs::path("/sys");
  return detect_local_gpus(roots);
}

}  // namespace jgrid::exec
