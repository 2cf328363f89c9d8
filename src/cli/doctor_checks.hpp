#pragma once
// The checks of `jgrid-local doctor`: can this machine be the grid's local
// ROCm node (docs/rocm.md §4)? Each check is one line with its result and fix.
#include <string>
#include <vector>

#include "serve_options.hpp"

namespace jgrid::cli {

struct DoctorCheck {
  std::string name;    // "engine", "engine.run", "kfd", "kfd.access", "topology", "render", "groups", "rocm"
  std::string status;  // "pass" | "warn" | "fail"
  std::string detail;  // what was found
  std::string fix;     // what to do; empty on pass
};

// Runs every check with the serve options that matter (--engine,
// --engine-arg, --sysfs-root, --dev-root, --local-gpu-optional: GPU checks
// then warn instead of fail). `image`: what `engine.run` runs (`true` in
// it); "" = the local test image when present, else the first local image.
std::vector<DoctorCheck> run_doctor_checks(const ServeOptions& options, const std::string& image);

}  // namespace jgrid::cli
