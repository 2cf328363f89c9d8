#include "doctor_checks.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "jgrid/exec/container_executor.hpp"
#include "jgrid/exec/gpu_detect.hpp"
#include "jgrid/exec/local_node.hpp"
#include "jgrid/screen/diagnose.hpp"
#include "jgrid/util/files.hpp"
#include "jgrid/util/strings.hpp"

namespace jgrid::cli {
namespace {

namespace fs = std::filesystem;
using Checks = std::vector<DoctorCheck>;

constexpr const char* k_test_image = "localhost/jgrid-busybox-rocm:latest";
// The fix a failed run with no access to the devices gets (screen::diagnose): the same words here.
const std::string k_groups_fix = screen::explain_code("GPU_DEVICE_PERMISSION", {}).fix;

// gfx archs that ROCm's prebuilt PyTorch wheels and rocm/* images carry code objects for; another
// arch needs an image built for it (or, within one generation, HSA_OVERRIDE_GFX_VERSION).
constexpr const char* k_prebuilt_archs[] = {"gfx900",  "gfx906",  "gfx908",  "gfx90a",  "gfx942",  "gfx950",
                                            "gfx1030", "gfx1100", "gfx1101", "gfx1102", "gfx1200", "gfx1201"};

struct Context {
  const ServeOptions& options;
  std::string image;
  exec::LocalGpuReport gpus;
  std::string engine;  // resolved; "" when none answers
  std::string gpu_fail = "fail";  // "warn" with --local-gpu-optional
};

DoctorCheck pass(std::string name, std::string detail) { return {std::move(name), "pass", std::move(detail), ""}; }

bool can_read_write(const std::string& path) { return ::access(path.c_str(), R_OK | W_OK) == 0; }

bool in_group(int gid) {
  if (gid < 0) return false;
  if (::getegid() == static_cast<gid_t>(gid) || ::geteuid() == 0) return true;
  std::vector<gid_t> groups(static_cast<std::size_t>(std::max(::getgroups(0, nullptr), 0)));
  int count = ::getgroups(static_cast<int>(groups.size()), groups.data());
  return std::find(groups.begin(), groups.begin() + std::max(count, 0), static_cast<gid_t>(gid)) !=
         groups.begin() + std::max(count, 0);
}

void check_engine(Context& c, Checks& out) {
  auto engine = exec::resolve_engine(c.options.engine);
  if (!engine) {
    out.push_back({"engine", "fail", engine.error().message, "apt-get install -y podman runc, or start docker"});
    return;
  }
  c.engine = *engine;
  out.push_back(pass("engine", *engine + " answers (--engine " + c.options.engine + ")"));
}

std::string pick_image(const Context& c) {
  if (!c.image.empty()) return c.image;
  if (exec::inspect_image(c.engine, k_test_image)) return k_test_image;
  auto catalog = exec::local_image_catalog(c.engine);
  return catalog.empty() ? "" : catalog.front().ref;
}

void check_engine_run(Context& c, Checks& out) {
  if (c.engine.empty()) return;
  std::string image = pick_image(c);
  if (image.empty()) {
    out.push_back({"engine.run", "fail", "no local image to try a container with",
                   "load one (" + c.engine + " load -i image.tar, or " + c.engine + " import) or pass --image"});
    return;
  }
  std::string ran = exec::try_container(c.engine, c.options.engine_args, image);
  if (ran.empty())
    out.push_back(pass("engine.run", c.engine + " ran a container of " + image));
  else
    out.push_back({"engine.run", "fail", c.engine + " run " + image + " failed: " + ran,
                   "on CI sandboxes add --engine-arg=--runtime --engine-arg=runc --engine-arg=--ulimit "
                   "--engine-arg=nofile=1024:1024 --engine-arg=--ulimit --engine-arg=nproc=1024:1024"});
}

void check_kfd(Context& c, Checks& out) {
  const auto& gpus = c.gpus;
  if (!gpus.kfd_present) {
    out.push_back({"kfd", c.gpu_fail, gpus.kfd_path + " is missing",
                   "install the amdgpu driver of a ROCm release on a machine with an AMD GPU, or serve with "
                   "--local-gpu-optional"});
    return;
  }
  out.push_back(pass("kfd", gpus.kfd_path + " exists"));
  if (can_read_write(gpus.kfd_path))
    out.push_back(pass("kfd.access", "you can open " + gpus.kfd_path));
  else
    out.push_back({"kfd.access", c.gpu_fail, "no read/write access to " + gpus.kfd_path, k_groups_fix});
}

void check_topology(Context& c, Checks& out) {
  if (c.gpus.gpus.empty()) {
    out.push_back({"topology", c.gpu_fail, "no GPU agent in the KFD topology",
                   c.gpus.problems.empty() ? "install the amdgpu driver" : c.gpus.problems.front()});
    return;
  }
  for (const auto& line : exec::describe_report(c.gpus))
    if (line.rfind("GPU ", 0) == 0) out.push_back(pass("topology", line));
}

void check_render(Context& c, Checks& out) {
  for (const auto& gpu : c.gpus.gpus) {
    std::string name = "render";
    if (gpu.render_node.empty() || !fs::exists(gpu.render_node))
      out.push_back({name, c.gpu_fail, "GPU " + std::to_string(gpu.index) + " has no render node",
                     "update the amdgpu driver (ls -l /dev/dri)"});
    else if (!can_read_write(gpu.render_node))
      out.push_back({name, c.gpu_fail, "no read/write access to " + gpu.render_node, k_groups_fix});
    else
      out.push_back(pass(name, "you can open " + gpu.render_node));
  }
}

void check_groups(Context& c, Checks& out) {
  if (!c.gpus.usable()) return;
  for (auto [name, gid] : {std::pair<std::string, int>{"video", c.gpus.video_gid}, {"render", c.gpus.render_gid}}) {
    if (gid < 0)
      out.push_back({"groups", c.gpu_fail, "group " + name + " does not exist", "groupadd -r " + name});
    else if (!in_group(gid))
      out.push_back({"groups", "warn", "you are not in group " + name + " (" + std::to_string(gid) + ")", k_groups_fix});
    else
      out.push_back(pass("groups", "member of " + name + " (" + std::to_string(gid) + ")"));
  }
}

void check_rocm(Context& c, Checks& out) {
  bool smi = exec::program_on_path("amd-smi") || exec::program_on_path("rocm-smi");
  std::string version = c.gpus.rocm_version.empty() ? "ROCm not found in /opt/rocm" : "ROCm " + c.gpus.rocm_version;
  if (smi && !c.gpus.rocm_version.empty())
    out.push_back(pass("rocm", version + ", amd-smi/rocm-smi present"));
  else
    out.push_back({"rocm", "warn", version + (smi ? "" : ", no amd-smi or rocm-smi on PATH"),
                   "optional on the host (images carry ROCm): apt-get install amd-smi-lib rocm-smi-lib from "
                   "repo.radeon.com for GPU names and health"});
}

// Each GPU's ISA: images must carry code objects for it (GPU_ISA_UNSUPPORTED otherwise).
void check_isa(Context& c, Checks& out) {
  for (const auto& gpu : c.gpus.gpus) {
    std::string detail = "GPU " + std::to_string(gpu.index) + " (" + gpu.model + ") is " + gpu.gfx_arch;
    bool prebuilt = std::any_of(std::begin(k_prebuilt_archs), std::end(k_prebuilt_archs),
                                [&](const char* arch) { return gpu.gfx_arch == arch; });
    if (prebuilt) {
      out.push_back(pass("isa", detail + ": ROCm's prebuilt PyTorch and rocm/* images carry code for it"));
      continue;
    }
    screen::FailureFacts facts;
    facts.gpu_model = gpu.model;
    facts.gpu_arch = gpu.gfx_arch;
    out.push_back({"isa", "warn", detail + ": ROCm's prebuilt images carry no code for it",
                   screen::explain_code("GPU_ISA_UNSUPPORTED", facts).fix});
  }
}

// The kernel driver against the ROCm user space: a DKMS amdgpu driver says
// its version in sysfs; the kernel's own driver does not.
void check_driver(Context& c, Checks& out) {
  if (!c.gpus.kfd_present) return;
  auto version = util::read_file(fs::path(c.options.sysfs_root) / "module/amdgpu/version");
  std::string rocm = c.gpus.rocm_version.empty() ? "no ROCm user space on the host" : "ROCm " + c.gpus.rocm_version + " on the host";
  if (version && !util::trim(*version).empty()) {
    out.push_back(pass("driver", "amdgpu driver " + util::trim(*version) + " (DKMS), " + rocm +
                                     "; images should use a ROCm release that supports this driver"));
    return;
  }
  out.push_back({"driver", "warn", "the kernel's own amdgpu driver (no DKMS version), " + rocm,
                 "images whose ROCm user space is newer than this kernel supports fail with ROCM_USERSPACE_MISSING or "
                 "NO_GPU_VISIBLE: install amdgpu-dkms from the ROCm release your images use (repo.radeon.com), or "
                 "use images of a ROCm release this kernel supports"});
}

using Step = void (*)(Context&, Checks&);
constexpr Step k_steps[] = {check_engine, check_engine_run, check_kfd,    check_topology, check_render,
                            check_groups, check_isa,        check_driver, check_rocm};

}  // namespace

std::vector<DoctorCheck> run_doctor_checks(const ServeOptions& options, const std::string& image) {
  Context context{options, image, exec::detect_local_gpus(options.sysfs_root, options.dev_root)};
  if (options.local_gpu_optional) context.gpu_fail = "warn";
  Checks checks;
  for (Step step : k_steps) step(context, checks);
  return checks;
}

}  // namespace jgrid::cli
