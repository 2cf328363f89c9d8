#include "exec/gpu_detect_problems.hpp"

#include <catch2/catch.hpp>

using namespace jgrid::exec;

namespace {

LocalGpuReport usable_report() {
  LocalGpuReport report;
  report.kfd_present = true;
  report.kfd_path = "/nonexistent/dev/kfd";
  LocalGpu gpu;
  gpu.name = "AMD Instinct MI300X";
  gpu.gfx_arch = "gfx942";
  gpu.vram_gb = 192;
  gpu.render_minor = 128;
  gpu.render_node = "/nonexistent/dev/dri/renderD128";
  report.gpus.push_back(gpu);
  report.video_gid = 44;
  report.render_gid = 110;
  return report;
}

}  // namespace

TEST_CASE("exec::detection_problems names a missing render node and its fix", "[exec][gpu]") {
  auto problems = detection_problems(usable_report(), GpuDetectRoots{}, {1, "", true});
  REQUIRE(problems.size() == 1);
  CHECK(problems[0] ==
        "GPU 0 (gfx942): /nonexistent/dev/dri/renderD128 is missing: containers need it; check the "
        "amdgpu driver (ls -l /dev/dri) or pass /dev/dri in");
}

TEST_CASE("exec::detection_problems tells a driver without KFD from no driver at all", "[exec][gpu]") {
  LocalGpuReport report;
  report.kfd_path = "/dev/kfd";
  auto with_card = detection_problems(report, GpuDetectRoots{}, {1, "", false});
  REQUIRE(with_card.size() == 1);
  CHECK(with_card[0].find("although an AMD GPU is present") != std::string::npos);
  auto without = detection_problems(report, GpuDetectRoots{}, {0, "", false});
  REQUIRE(without.size() == 1);
  CHECK(without[0].find("no AMD GPU driver (amdgpu) is loaded") != std::string::npos);
}

TEST_CASE("exec::detection_problems reports KFD without GPU agents", "[exec][gpu]") {
  LocalGpuReport report;
  report.kfd_present = true;
  auto no_topology = detection_problems(report, GpuDetectRoots{}, {1, "", false});
  REQUIRE(no_topology.size() == 1);
  CHECK(no_topology[0].find("topology/nodes is missing") != std::string::npos);
  auto cpu_only = detection_problems(report, GpuDetectRoots{}, {1, "", true});
  REQUIRE(cpu_only.size() == 1);
  CHECK(cpu_only[0].find("no GPU agent") != std::string::npos);
}

TEST_CASE("exec::describe_report gives one line per GPU and per problem", "[exec][gpu]") {
  LocalGpuReport report = usable_report();
  report.rocm_version = "6.2.4";
  report.problems = {"something is off: fix it"};
  auto lines = describe_report(report);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0] == "GPU 0: AMD Instinct MI300X (gfx942, 192.0 GiB, /nonexistent/dev/dri/renderD128)");
  CHECK(lines[1] == "ROCm 6.2.4 installed");
  CHECK(lines[2] == "problem: something is off: fix it");
  CHECK(describe_report(LocalGpuReport{}) == std::vector<std::string>{"no AMD GPU detected"});
}
