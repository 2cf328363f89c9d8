#include "cli/doctor_checks.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "jgrid/screen/diagnose.hpp"

using jgrid::cli::DoctorCheck;
using jgrid::cli::ServeOptions;

namespace {

std::vector<DoctorCheck> checks_on(const std::string& fixture) {
  ServeOptions options;
  options.engine = "/nonexistent-engine";  // the engine checks fail fast; the GPU checks read the fixture
  options.sysfs_root = std::string(JGRID_SOURCE_DIR) + "/tests/fixtures/sysfs/" + fixture + "/sys";
  options.dev_root = std::string(JGRID_SOURCE_DIR) + "/tests/fixtures/sysfs/" + fixture + "/dev";
  return jgrid::cli::run_doctor_checks(options, "");
}

std::vector<DoctorCheck> named(const std::vector<DoctorCheck>& checks, const std::string& name) {
  std::vector<DoctorCheck> out;
  for (const auto& check : checks)
    if (check.name == name) out.push_back(check);
  return out;
}

}  // namespace

TEST_CASE("cli doctor names each GPU's ISA and warns, with the diagnosis fix, when images lack it", "[cli][doctor]") {
  auto mi300x = named(checks_on("mi300x_x8"), "isa");
  REQUIRE(mi300x.size() == 8);
  CHECK(mi300x[0].status == "pass");
  CHECK(mi300x[0].detail.find("gfx942") != std::string::npos);
  auto apu = named(checks_on("apu_only"), "isa");
  REQUIRE(apu.size() == 1);
  CHECK(apu[0].status == "warn");
  jgrid::screen::FailureFacts facts;
  facts.gpu_arch = "gfx1103";
  facts.gpu_model = apu[0].detail.substr(apu[0].detail.find('(') + 1, apu[0].detail.find(')') - apu[0].detail.find('(') - 1);
  CHECK(apu[0].fix == jgrid::screen::explain_code("GPU_ISA_UNSUPPORTED", facts).fix);
}

TEST_CASE("cli doctor reads the kernel driver beside the ROCm user space", "[cli][doctor]") {
  auto dkms = named(checks_on("mi300x_x8"), "driver");
  REQUIRE(dkms.size() == 1);
  CHECK(dkms[0].status == "pass");
  CHECK(dkms[0].detail.find("amdgpu driver 6.10.5") != std::string::npos);
  auto inbox = named(checks_on("rx7900xtx"), "driver");
  REQUIRE(inbox.size() == 1);
  CHECK(inbox[0].status == "warn");
  CHECK(inbox[0].fix.find("amdgpu-dkms") != std::string::npos);
}
