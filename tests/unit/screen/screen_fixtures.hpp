#pragma once
// Requests and image metadata shared by the screen tests.
#include <stdexcept>
#include <string>

#include "jgrid/model/job_spec.hpp"
#include "jgrid/screen/screen.hpp"

namespace jgrid::screen::testing {

// The seed's example request (docs/rocm.md §2): passes every rule.
inline model::JobSpec example_request() {
  model::JobSpec spec;
  spec.image = "ghcr.io/acme/pytorch-rocm:latest";
  spec.gpu_vendor = "amd";
  spec.runtime = "rocm";
  spec.framework = "pytorch-rocm";
  spec.command = {"python", "infer.py"};
  return spec;
}

// A request that declares no GPU stack at all.
inline model::JobSpec undeclared_request(std::string image = "ghcr.io/acme/app:latest") {
  model::JobSpec spec;
  spec.image = std::move(image);
  spec.command = {"python", "infer.py"};
  return spec;
}

inline model::JobSpec nvidia_request(std::string image = "nvcr.io/nvidia/pytorch:24.01-py3") {
  model::JobSpec spec = undeclared_request(std::move(image));
  spec.gpu_vendor = "nvidia";
  spec.runtime = "cuda";
  return spec;
}

// What the fleet's image catalog says about the example image (docs/simulation.md §1).
inline ImageMetadata rocm_catalog_entry() {
  ImageMetadata image;
  image.known = true;
  image.labels = {{"io.junglegrid.runtime", "rocm"}};
  image.env = {{"ROCM_VERSION", "6.2"}};
  image.digest = "sha256:0123";
  return image;
}

inline const Check& check_of(const Screening& screening, const std::string& rule) {
  for (const auto& check : screening.checks)
    if (check.rule == rule) return check;
  throw std::runtime_error("no check " + rule);
}

}  // namespace jgrid::screen::testing
