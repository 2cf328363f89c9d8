#pragma once
// Signals: what the image reference, the image metadata, the command and the
// environment say about the GPU stack. Each finder returns the first piece of
// evidence it meets (empty Evidence when none). Pure and thread-safe.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "jgrid/screen/screen.hpp"
#include "screen/tokens.hpp"

namespace jgrid::screen {

struct Evidence {
  std::string field;     // "image", "image.env.CUDA_VERSION", "command", "environment.KEY", ...
  std::string found;     // what matched, for messages: "tag token cu121", "nvidia-smi"
  std::string fix;       // fix text when the finder knows a specific one
  explicit operator bool() const { return !found.empty(); }
};

using Env = std::map<std::string, std::string>;

// Image token rules (tokens split on [/:._@-], case-insensitive):
// CUDA: cuda, cudaNN, cudnn, cudnnN, cuNNN (cu118, cu121 ...). ROCm: rocm, rocmN.
bool is_cuda_token(std::string_view token);
bool is_rocm_token(std::string_view token);

// nvcr.io, Docker Hub nvidia/*, CUDA tokens in repository or tag, a `gpu`
// tag of a known CUDA-only project (tensorflow/tensorflow:*-gpu ...), or,
// when nothing in the name says ROCm, a well-known image family whose
// default build is CUDA (known_images.hpp; the fix names its ROCm build).
Evidence image_cuda_name(const ImageRef& ref);
Evidence image_rocm_name(const ImageRef& ref);
// Labels com.nvidia.*, io.junglegrid.runtime=cuda; env NVIDIA_REQUIRE_CUDA,
// CUDA_VERSION, NV_CUDA_*.
Evidence image_cuda_metadata(const ImageMetadata& image);
// Labels io.junglegrid.runtime=rocm, com.amd.*, org.opencontainers.image.vendor=AMD;
// env ROCM_VERSION, ROCM_PATH, HIP_PATH.
Evidence image_rocm_metadata(const ImageMetadata& image);

// Command and args joined with single spaces: the text the command finders read.
std::string join_command(const std::vector<std::string>& command);
// nvidia-smi, nvcc, nsys, ncu, nvidia-cuda-mps-*, --gpus, --runtime nvidia,
// --device nvidia.com/gpu=...
Evidence command_nvidia_tool(std::string_view command);
// .../whl/cu1xx indexes, nvidia-*-cu1x packages, +cu1xx local versions,
// cupy-cuda*, [cuda...] / [and-cuda] extras.
Evidence command_cuda_wheels(std::string_view command);
bool command_uses_torch_cuda(std::string_view command);
// /dev/nvidia*, /usr/local/cuda, /proc/driver/nvidia in the command, then in
// environment values.
Evidence nvidia_path(std::string_view command, const Env& env);
// NVIDIA_VISIBLE_DEVICES, NVIDIA_DRIVER_CAPABILITIES, NVIDIA_REQUIRE_CUDA
// (exact names: environment variables are case-sensitive).
Evidence env_nvidia(const Env& env);

}  // namespace jgrid::screen
