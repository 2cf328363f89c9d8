#include "doctor_checks.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "jgrid/exec/container_executor.hpp"
#include "jgrid/exec/gpu_detect.hpp"
#include "jgrid/exec/local_node.hpp"
#include "jgrid/util/strings.hpp"

namespace jgrid::cli {
namespace {

namespace fs = std::filesystem;
using Checks = std::vector<DoctorCheck>;

constexpr const char* k_test_image = "localhost/jgrid-busybox-rocm:latest";
const std::string k_groups_fix = "add yourself to the render and video groups (sudo usermod -aG render,video $USER), "
                                 "then log in again";

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

using Step = void (*)(Context&, Checks&);
constexpr Step k_steps[] = {check_engine, check_engine_run, check_kfd, check_topology,
                            check_render, check_groups,     check_rocm};

}  // namespace

std::vector<DoctorCheck> run_doctor_checks(const ServeOptions& options, const std::string& image) {
  Context context{options, image, exec::detect_local_gpus(options.sysfs_root, options.dev_root)};
  if (options.local_gpu_optional) context.gpu_fail = "warn";
  Checks checks;
  for (Step step : k_steps) step(context, checks);
  return checks;
}

}  // namespace jgrid::cli
