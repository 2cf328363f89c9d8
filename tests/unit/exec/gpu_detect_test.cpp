#include "jgrid/exec/gpu_detect.hpp"

#include <grp.h>

#include <catch2/catch.hpp>

using namespace jgrid::exec;
namespace fs = std::filesystem;

namespace {

fs::path fixture(const std::string& name) { return fs::path(__FILE__).parent_path() / "../../fixtures/sysfs" / name; }

GpuDetectRoots roots_of(const std::string& name) {
  GpuDetectRoots roots;
  roots.sysfs = fixture(name) / "sys";
  roots.dev = fixture(name) / "dev";
  roots.etc = fixture(name) / "etc";
  roots.rocm = fixture(name) / "opt/rocm";
  return roots;
}

bool any_problem_contains(const LocalGpuReport& report, const std::string& text) {
  for (const auto& problem : report.problems)
    if (problem.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("exec::gfx_arch_name decodes KFD gfx_target_version like ROCm", "[exec][gpu]") {
  CHECK(gfx_arch_name(90402) == "gfx942");
  CHECK(gfx_arch_name(90010) == "gfx90a");
  CHECK(gfx_arch_name(90012) == "gfx90c");
  CHECK(gfx_arch_name(90008) == "gfx908");
  CHECK(gfx_arch_name(110000) == "gfx1100");
  CHECK(gfx_arch_name(110003) == "gfx1103");
  CHECK(gfx_arch_name(100300) == "gfx1030");
  CHECK(gfx_arch_name(120001) == "gfx1201");
  CHECK(gfx_arch_name(0).empty());
}

TEST_CASE("exec::detect_local_gpus finds eight MI300X in topology order", "[exec][gpu]") {
  LocalGpuReport report = detect_local_gpus(roots_of("mi300x_x8"));
  CHECK(report.kfd_present);
  CHECK(report.usable());
  CHECK(report.kfd_path == (fixture("mi300x_x8") / "dev" / "kfd").string());
  REQUIRE(report.gpus.size() == 8);
  for (int i = 0; i < 8; ++i) {
    const LocalGpu& gpu = report.gpus[i];
    CHECK(gpu.index == i);
    CHECK(gpu.topology_node == i + 2);  // nodes 0 and 1 are the CPU sockets
    CHECK(gpu.gfx_arch == "gfx942");
    CHECK(gpu.name == "AMD Instinct MI300X");
    CHECK(gpu.model == "MI300X");
    CHECK(gpu.family == "instinct");
    CHECK(gpu.gpu_class == "datacenter");
    CHECK(gpu.vram_gb == Approx(192.0));
    CHECK(gpu.render_minor == 128 + i);
    CHECK(gpu.render_node == (fixture("mi300x_x8") / "dev" / "dri" / ("renderD" + std::to_string(128 + i))).string());
    CHECK_FALSE(gpu.integrated);
  }
  CHECK(report.rocm_version == "6.2.4");
  CHECK(report.video_gid == 44);
  CHECK(report.render_gid == 110);
  CHECK(report.problems.empty());  // the ASPEED BMC display is not a problem
}

TEST_CASE("exec::detect_local_gpus finds one RX 7900 XTX", "[exec][gpu]") {
  LocalGpuReport report = detect_local_gpus(roots_of("rx7900xtx"));
  CHECK(report.usable());
  REQUIRE(report.gpus.size() == 1);
  CHECK(report.gpus[0].gfx_arch == "gfx1100");
  CHECK(report.gpus[0].name == "AMD Radeon RX 7900 XTX");
  CHECK(report.gpus[0].family == "radeon");
  CHECK(report.gpus[0].vram_gb == Approx(24.0));
  CHECK(report.gpus[0].render_minor == 128);
  CHECK(report.render_gid == 992);
  CHECK(report.rocm_version == "6.3.1");
  CHECK(report.problems.empty());
}

TEST_CASE("exec::detect_local_gpus reports an APU's GPU with a support warning", "[exec][gpu]") {
  LocalGpuReport report = detect_local_gpus(roots_of("apu_only"));
  CHECK(report.usable());
  REQUIRE(report.gpus.size() == 1);
  CHECK(report.gpus[0].gfx_arch == "gfx1103");
  CHECK(report.gpus[0].integrated);
  CHECK(report.gpus[0].name == "AMD Radeon 780M");
  CHECK(report.gpus[0].vram_gb == Approx(0.5));
  CHECK(report.rocm_version.empty());
  REQUIRE(report.problems.size() == 1);
  CHECK(report.problems[0].find("integrated GPU") != std::string::npos);
  CHECK(report.problems[0].find("HSA_OVERRIDE_GFX_VERSION=11.0.0") != std::string::npos);
}

TEST_CASE("exec::detect_local_gpus on a machine without GPU says why and what to do", "[exec][gpu]") {
  LocalGpuReport report = detect_local_gpus(roots_of("none"));
  CHECK_FALSE(report.kfd_present);
  CHECK_FALSE(report.usable());
  CHECK(report.gpus.empty());
  REQUIRE(report.problems.size() == 1);
  CHECK(report.problems[0].find("kfd is missing") != std::string::npos);
  CHECK(report.problems[0].find("--local-gpu-optional") != std::string::npos);
}

TEST_CASE("exec::detect_local_gpus on an NVIDIA machine names the vendor", "[exec][gpu]") {
  LocalGpuReport report = detect_local_gpus(roots_of("nvidia_only"));
  CHECK_FALSE(report.usable());
  CHECK(report.gpus.empty());
  CHECK(any_problem_contains(report, "only non-AMD GPUs found (NVIDIA 0x10de)"));
  CHECK(any_problem_contains(report, "kfd is missing"));
  for (const auto& problem : report.problems) CHECK(problem.find('\n') == std::string::npos);
}

TEST_CASE("exec::detect_local_gpus flags a render node missing from the dev root", "[exec][gpu]") {
  GpuDetectRoots roots = roots_of("mi300x_x8");
  roots.dev = fixture("rx7900xtx") / "dev";  // has kfd and renderD128 only
  LocalGpuReport report = detect_local_gpus(roots);
  REQUIRE(report.gpus.size() == 8);
  CHECK_FALSE(any_problem_contains(report, "renderD128 is missing"));
  CHECK(any_problem_contains(report, "GPU 1 (gfx942): " + report.gpus[1].render_node + " is missing"));
  CHECK(report.problems.size() == 7);
}

TEST_CASE("exec::detect_local_gpus flags unknown video and render groups", "[exec][gpu]") {
  GpuDetectRoots roots = roots_of("rx7900xtx");
  roots.etc = fixture("rx7900xtx") / "no-such-etc";
  LocalGpuReport report = detect_local_gpus(roots);
  CHECK(report.video_gid == -1);
  CHECK(report.render_gid == -1);
  CHECK(any_problem_contains(report, "group render not found"));
  CHECK(any_problem_contains(report, "group video not found"));
}

TEST_CASE("exec::detect_local_gpus with two roots reads the system groups", "[exec][gpu]") {
  LocalGpuReport report = detect_local_gpus(fixture("rx7900xtx") / "sys", fixture("rx7900xtx") / "dev");
  REQUIRE(report.gpus.size() == 1);
  CHECK(report.gpus[0].render_node == (fixture("rx7900xtx") / "dev" / "dri" / "renderD128").string());
  const group* video = ::getgrnam("video");
  CHECK(report.video_gid == (video ? static_cast<int>(video->gr_gid) : -1));
}
