// The built-in fleet, written as a fleet document so it goes through the same
// parser (and checks) as a user's file.
#include <stdexcept>

#include "jgrid/exec/fleet.hpp"
#include "jgrid/exec/fleet_document.hpp"

namespace jgrid::exec {
namespace {

constexpr const char* k_default_fleet = R"json({
  "seed": 42,
  "clock": {"mode": "real", "scale": 1.0},
  "images": [
    {"ref": "ghcr.io/acme/pytorch-rocm:latest",
     "labels": {"io.junglegrid.runtime": "rocm", "org.opencontainers.image.vendor": "Acme"},
     "env": {"ROCM_VERSION": "6.2", "ROCM_PATH": "/opt/rocm"},
     "digest": "sha256:2a01f7b54cefde4867b27fdbd871034c83bc9ce047fc49490fc20f43e3c5ddbc",
     "size_mb": 9100,
     "sim": {"duration_s": 10, "stdout_every_s": 1,
             "stdout": ["loading model", "classifying batch {i}/{n}", "{\"label\": \"EAR99\"}"],
             "artifacts": {"/workspace/artifacts/result.json": {"label": "EAR99", "ok": true}}}},
    {"ref": "rocm/pytorch:latest",
     "labels": {"org.opencontainers.image.vendor": "AMD", "com.amd.rocm.version": "6.2"},
     "env": {"ROCM_VERSION": "6.2", "ROCM_PATH": "/opt/rocm", "HIP_PATH": "/opt/rocm"},
     "digest": "sha256:27b0e2c59c3637cddaf2465c35c6dd5f89d639e40456e82ccea380ad8f3859e5",
     "size_mb": 14000},
    {"ref": "rocm/vllm:latest",
     "labels": {"org.opencontainers.image.vendor": "AMD", "com.amd.rocm.version": "6.2"},
     "env": {"ROCM_VERSION": "6.2", "ROCM_PATH": "/opt/rocm", "VLLM_TARGET_DEVICE": "rocm"},
     "digest": "sha256:0713bdd239a3fbe5743c6373204bbb985089695ceb1f1055a5b93b26efd267c1",
     "size_mb": 18000},
    {"ref": "nvidia/cuda:12.4.0-runtime-ubuntu22.04",
     "labels": {"maintainer": "NVIDIA CORPORATION <cudatools@nvidia.com>",
                "com.nvidia.cudnn.version": "9.1.0.70", "com.nvidia.volumes.needed": "nvidia_driver"},
     "env": {"CUDA_VERSION": "12.4.0", "NVIDIA_REQUIRE_CUDA": "cuda>=12.4 brand=tesla,driver>=470,driver<471",
             "NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": "compute,utility"},
     "digest": "sha256:0400012b2bff0ab8eea2c362449488f7a4999549561982b0a9116070aa29cc30",
     "size_mb": 2400}
  ],
  "pools": [
    {"name": "mi300x-east", "count": 2, "region": "us-east",
     "gpu": {"vendor": "amd", "model": "MI300X", "family": "instinct", "class": "datacenter",
             "count": 8, "vram_gb": 192, "arch": "gfx942"},
     "runtime": {"name": "rocm", "version": "6.2"}, "price_per_gpu_hour": 2.10, "speed": 1.0,
     "labels": {"amd.com/gpu.family": "AI", "amd.com/gpu.arch": "gfx942"},
     "startup": {"provision_s": [1, 3], "image_pull_mb_per_s": 2000}},
    {"name": "mi250-west", "count": 1, "region": "us-west",
     "gpu": {"vendor": "amd", "model": "MI250", "family": "instinct", "class": "datacenter",
             "count": 4, "vram_gb": 64, "arch": "gfx90a"},
     "runtime": {"name": "rocm", "version": "6.1"}, "price_per_gpu_hour": 1.40, "speed": 0.8,
     "labels": {"amd.com/gpu.family": "AI", "amd.com/gpu.arch": "gfx90a"},
     "startup": {"provision_s": [1, 3], "image_pull_mb_per_s": 2000}},
    {"name": "w7900-east", "count": 2, "region": "us-east",
     "gpu": {"vendor": "amd", "model": "Radeon PRO W7900", "family": "radeon", "class": "workstation",
             "count": 1, "vram_gb": 48, "arch": "gfx1100"},
     "runtime": {"name": "rocm", "version": "6.2"}, "price_per_gpu_hour": 0.60, "speed": 0.8,
     "labels": {"amd.com/gpu.family": "NV", "amd.com/gpu.arch": "gfx1100"},
     "startup": {"provision_s": [1, 3], "image_pull_mb_per_s": 2000}},
    {"name": "h100-west", "count": 2, "region": "us-west",
     "gpu": {"vendor": "nvidia", "model": "H100", "family": "hopper", "class": "datacenter",
             "count": 8, "vram_gb": 80},
     "runtime": {"name": "cuda", "version": "12.4"}, "price_per_gpu_hour": 2.90, "speed": 1.0,
     "labels": {"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3"},
     "startup": {"provision_s": [1, 3], "image_pull_mb_per_s": 2000}},
    {"name": "l4-east", "count": 1, "region": "us-east",
     "gpu": {"vendor": "nvidia", "model": "L4", "family": "ada", "class": "datacenter",
             "count": 1, "vram_gb": 24},
     "runtime": {"name": "cuda", "version": "12.2"}, "price_per_gpu_hour": 0.70, "speed": 0.7,
     "labels": {"nvidia.com/gpu.product": "NVIDIA-L4"},
     "startup": {"provision_s": [1, 3], "image_pull_mb_per_s": 2000}}
  ]
})json";

}  // namespace

nlohmann::json default_fleet_document() { return nlohmann::json::parse(k_default_fleet); }

Fleet default_fleet() {
  auto fleet = parse_fleet(default_fleet_document(), "built-in fleet");
  if (!fleet.ok()) throw std::logic_error(fleet.error().message);  // a bug in the document above
  return std::move(fleet).value();
}

}  // namespace jgrid::exec
