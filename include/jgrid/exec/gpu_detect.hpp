#pragma once
// Detection of this machine's AMD GPUs for the local ROCm executor
// (docs/rocm.md §4): /dev/kfd, the KFD topology in sysfs (one node per CPU or GPU
// agent), the DRM cards and the video/render groups. Every root is a
// parameter so tests read fixture trees (tests/fixtures/sysfs/<name>/{sys,dev,etc}).
// Reading never fails: what is missing or wrong becomes one line in
// LocalGpuReport::problems, each saying what to do about it.
// Functions here are thread-safe (they only read files and run commands).
#include <filesystem>
#include <string>
#include <vector>

namespace jgrid::exec {

struct LocalGpu {
  int index = 0;            // ROCm device index: order among the GPU agents (ROCR_VISIBLE_DEVICES)
  std::string name;         // marketing name ("AMD Instinct MI300X"), or "AMD GPU gfx… (0x…)" when unknown
  std::string model;        // short model as nodes show it ("MI300X", "Radeon RX 7900 XTX")
  std::string family;       // "instinct" | "radeon"
  std::string gpu_class;    // "datacenter" | "workstation" | "consumer"
  std::string gfx_arch;     // "gfx942"
  double vram_gb = 0;       // GiB of dedicated memory, one decimal
  int render_minor = -1;    // drm_render_minor; -1 when the topology does not say
  std::string render_node;  // <dev>/dri/renderD<minor>; "" when render_minor < 0
  // Beyond the minimum: where it came from and what kind of GPU it is.
  int topology_node = -1;   // /sys/class/kfd/kfd/topology/nodes/<n>
  int device_id = 0;        // PCI device id (0x74a1 for MI300X)
  bool integrated = false;  // an APU's GPU (shares system memory)
};

struct LocalGpuReport {
  bool kfd_present = false;             // <dev>/kfd exists
  std::string kfd_path;                 // <dev>/kfd (the device to attach)
  std::vector<LocalGpu> gpus;           // by index
  std::string rocm_version;             // "6.2.4" from <rocm>/.info/version; "" when not installed
  // One line each, with its fix: blockers (no /dev/kfd, no GPU agent, a
  // missing render node, unknown groups) and warnings (an APU's GPU).
  // usable() says whether jobs can be given GPUs at all.
  std::vector<std::string> problems;
  int video_gid = -1, render_gid = -1;  // numeric group ids; -1 unknown
  bool usable() const { return kfd_present && !gpus.empty(); }
};

// Where detection looks. Defaults are the real machine.
struct GpuDetectRoots {
  std::filesystem::path sysfs = "/sys";
  std::filesystem::path dev = "/dev";
  // Directory holding a `group` file; empty: the system group database (getgrnam).
  std::filesystem::path etc;
  std::filesystem::path rocm = "/opt/rocm";
  // Ask `amd-smi` / `rocm-smi` (when on PATH) for marketing names.
  bool run_smi = false;
};

LocalGpuReport detect_local_gpus(const GpuDetectRoots& roots);

// The same with the given sysfs and dev roots, the system group database and
// /opt/rocm; amd-smi / rocm-smi are consulted only when sysfs_root is "/sys".
LocalGpuReport detect_local_gpus(const std::filesystem::path& sysfs_root, const std::filesystem::path& dev_root);

// ROCm's name of a KFD gfx_target_version (major*10000 + minor*100 + stepping):
// "gfx" + major + minor (decimal) + stepping (hex), as ROCm's runtime and
// profiler spell it: 90402 → "gfx942", 90010 → "gfx90a", 110000 → "gfx1100".
// "" for 0 (a CPU agent).
std::string gfx_arch_name(unsigned version);

// One line per GPU and per problem, for `doctor` and the server banner.
std::vector<std::string> describe_report(const LocalGpuReport& report);

}  // namespace jgrid::exec
