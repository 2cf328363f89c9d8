#pragma once
// The [podman] test cases need a podman that runs here and the two local
// test images (built on demand by fake-rocm-image.sh). Where podman cannot
// run, a case skips with a warning on a developer's machine; under CI=true
// (set by CI, whose `./dev test` installs podman) it fails instead and says
// what is missing, so a broken engine never passes as a skipped case.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

namespace jgrid::test {

// The local test images: a static busybox labelled as a ROCm image, and the
// same rootfs labelled as a CUDA one under a name that says nothing.
inline const std::string k_local_image = "localhost/jgrid-busybox-rocm:latest";
inline const std::string k_local_cuda_image = "localhost/jgrid-busybox-nv:latest";

// True once podman answers `podman info` and both test images exist.
inline bool podman_ready() {
  static const bool ready = [] {
    auto script = std::filesystem::path(__FILE__).parent_path() / "fake-rocm-image.sh";
    return std::system("podman info >/dev/null 2>&1") == 0 &&
           std::system(("bash '" + script.string() + "' podman >/dev/null 2>&1").c_str()) == 0;
  }();
  return ready;
}

// CI=true turns every skip into a failure.
inline bool skips_fail() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::strcmp(ci, "true") == 0;
}

}  // namespace jgrid::test

#define JGRID_PODMAN_UNAVAILABLE \
  "podman is not runnable here or the local test images cannot be built (apt-get install podman runc busybox-static)"

// First statement of a [podman] case: returns (skipped) or fails without podman.
#define REQUIRE_PODMAN_OR_SKIP()                                         \
  if (!jgrid::test::podman_ready()) {                                    \
    if (jgrid::test::skips_fail()) FAIL(JGRID_PODMAN_UNAVAILABLE " (CI=true: a skip is a failure)"); \
    WARN(JGRID_PODMAN_UNAVAILABLE ": [podman] case skipped");            \
    return;                                                              \
  }
