#include <catch2/catch.hpp>

#include "screen/signals.hpp"

using namespace jgrid::screen;

namespace {

std::string cuda_name(std::string_view ref) { return image_cuda_name(parse_image_ref(ref)).found; }
std::string rocm_name(std::string_view ref) { return image_rocm_name(parse_image_ref(ref)).found; }

}  // namespace

TEST_CASE("screen::is_cuda_token matches whole CUDA tokens only", "[screen]") {
  for (auto token : {"cuda", "CUDA", "cuda12", "cudnn", "cudnn8", "cu118", "cu121", "cu124", "CU126"}) {
    INFO(token);
    CHECK(is_cuda_token(token));
  }
  for (auto token : {"barracuda", "cudatoolkit", "cudax", "cu", "cu12", "cu1234", "cuab1", "accu121", "nvidia"}) {
    INFO(token);
    CHECK_FALSE(is_cuda_token(token));
  }
}

TEST_CASE("screen::is_rocm_token matches rocm and rocmN", "[screen]") {
  CHECK(is_rocm_token("rocm"));
  CHECK(is_rocm_token("ROCm6"));
  CHECK_FALSE(is_rocm_token("rocmx"));
  CHECK_FALSE(is_rocm_token("procm"));
}

TEST_CASE("screen::image_cuda_name finds CUDA in registry, repository and tag", "[screen]") {
  CHECK(cuda_name("nvcr.io/nvidia/pytorch:24.01-py3") == "registry nvcr.io (NVIDIA NGC)");
  CHECK(cuda_name("nvidia/cuda:12.4.0-runtime-ubuntu22.04") == "repository nvidia/cuda");
  CHECK(cuda_name("docker.io/nvidia/cudagl:11.4") == "repository nvidia/cudagl");
  CHECK(cuda_name("ghcr.io/acme/app:2.3-cu121") == "tag token 'cu121'");
  CHECK(cuda_name("ghcr.io/acme/cuda-app") == "repository token 'cuda'");
  CHECK(cuda_name("pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime") == "tag token 'cuda12'");
  CHECK_FALSE(cuda_name("tensorflow/tensorflow:2.15.0-gpu-jupyter").empty());
  CHECK_FALSE(cuda_name("paddlepaddle/paddle:2.6.0-gpu").empty());
}

TEST_CASE("screen::image_cuda_name leaves word-boundary lookalikes alone", "[screen]") {
  CHECK(cuda_name("ghcr.io/acme/barracuda:latest").empty());
  CHECK(cuda_name("ghcr.io/acme/cudatoolkit-free:1.0").empty());
  CHECK(cuda_name("ghcr.io/acme/app:cudatoolkit-free").empty());
  CHECK(cuda_name("ghcr.io/acme/pytorch-rocm:latest").empty());
  CHECK(cuda_name("ghcr.io/acme/tensorflow/tensorflow:gpu").empty());  // not the Docker Hub project
  CHECK(cuda_name("ghcr.io/nvidia/app:1").empty());                    // namespace nvidia only on Docker Hub
  CHECK(cuda_name("").empty());
}

TEST_CASE("screen::image_rocm_name finds ROCm tokens", "[screen]") {
  CHECK(rocm_name("ghcr.io/acme/pytorch-rocm:latest") == "repository token 'rocm'");
  CHECK(rocm_name("rocm/pytorch:latest") == "repository token 'rocm'");
  CHECK(rocm_name("ghcr.io/acme/app:rocm6.2_ubuntu22.04") == "tag token 'rocm6'");
  CHECK(rocm_name("ghcr.io/acme/procmail:1").empty());
}

TEST_CASE("screen::image_cuda_metadata reads NVIDIA labels and CUDA env", "[screen]") {
  ImageMetadata image;
  CHECK_FALSE(image_cuda_metadata(image));
  image.labels["com.nvidia.volumes.needed"] = "nvidia_driver";
  CHECK(image_cuda_metadata(image).field == "image.labels.com.nvidia.volumes.needed");
  image.labels.clear();
  image.labels["io.junglegrid.runtime"] = "Cuda";
  CHECK(image_cuda_metadata(image).found == "label io.junglegrid.runtime=Cuda");
  image.labels.clear();
  image.env["NV_CUDA_COMPAT_PACKAGE"] = "cuda-compat-12-4";
  CHECK(image_cuda_metadata(image).field == "image.env.NV_CUDA_COMPAT_PACKAGE");
  image.env = {{"CUDA_HOME_HINT", "x"}, {"PATH", "/usr/bin"}};
  CHECK_FALSE(image_cuda_metadata(image));
}

TEST_CASE("screen::image_rocm_metadata reads AMD labels and ROCm env", "[screen]") {
  ImageMetadata image;
  CHECK_FALSE(image_rocm_metadata(image));
  image.labels["org.opencontainers.image.vendor"] = "AMD";
  CHECK(image_rocm_metadata(image));
  image.labels["org.opencontainers.image.vendor"] = "Acme";
  CHECK_FALSE(image_rocm_metadata(image));
  image.labels = {{"com.amd.rocm.version", "6.2"}};
  CHECK(image_rocm_metadata(image));
  image.labels = {{"io.junglegrid.runtime", "ROCM"}};
  CHECK(image_rocm_metadata(image));
  image.labels.clear();
  image.env = {{"HIP_PATH", "/opt/rocm"}};
  CHECK(image_rocm_metadata(image).found == "env HIP_PATH=/opt/rocm");
}
