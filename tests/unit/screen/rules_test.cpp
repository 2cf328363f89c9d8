#include "screen/rules.hpp"

#include <catch2/catch.hpp>

#include "rule_cases.hpp"

namespace model = jgrid::model;
using namespace jgrid::screen;
using namespace jgrid::screen::testing;

namespace {

using Spec = model::JobSpec;
using Image = ImageMetadata;

const std::vector<RuleCase> k_rule_cases = {
    // intent.conflict (any intent)
    {"example request is consistent", "intent.conflict", "pass", Base::rocm, {}},
    {"undeclared request has nothing to contradict", "intent.conflict", "pass", Base::undeclared, {}},
    {"nvidia vendor with rocm runtime", "intent.conflict", "block", Base::undeclared,
     [](Spec& s, Image&) { s.gpu_vendor = "nvidia"; s.runtime = "rocm"; }, "runtime", "pick one stack"},
    {"amd vendor with vllm-cuda framework", "intent.conflict", "block", Base::undeclared,
     [](Spec& s, Image&) { s.gpu_vendor = "amd"; s.framework = "vllm-cuda"; }, "framework"},
    {"cuda runtime with amd vendor", "intent.conflict", "block", Base::undeclared,
     [](Spec& s, Image&) { s.gpu_vendor = "amd"; s.runtime = "cuda"; }, "runtime"},
    {"rocm request with a cuda runtime label", "intent.conflict", "block", Base::rocm,
     with_label("io.junglegrid.runtime", "cuda"), "labels"},
    {"vendor any with runtime rocm is consistent", "intent.conflict", "pass", Base::undeclared,
     [](Spec& s, Image&) { s.gpu_vendor = "any"; s.runtime = "rocm"; }},

    // gpu.required (any intent)
    {"one gpu", "gpu.required", "pass", Base::rocm, {}},
    {"gpu_count 0", "gpu.required", "block", Base::rocm, [](Spec& s, Image&) { s.gpu_count = 0; }, "gpu_count",
     "request at least one GPU"},
    {"requires_gpu false without intent", "gpu.required", "block", Base::undeclared,
     [](Spec& s, Image&) { s.requires_gpu = false; }, "requires_gpu"},

    // image.cuda_name
    {"rocm image", "image.cuda_name", "pass", Base::rocm, {}},
    {"nvidia/cuda with AMD intent", "image.cuda_name", "block", Base::rocm,
     with_image("nvidia/cuda:12.4.0-runtime-ubuntu22.04"), "image", "rocm/pytorch"},
    {"nvcr.io image with AMD intent names rocm/pytorch", "image.cuda_name", "block", Base::rocm,
     with_image("nvcr.io/nvidia/pytorch:24.01-py3"), "image", "use rocm/pytorch, the ROCm build of NGC PyTorch"},
    {"cuda and cudnn tag tokens", "image.cuda_name", "block", Base::rocm,
     with_image("pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime")},
    {"cu121 tag token", "image.cuda_name", "block", Base::rocm, with_image("ghcr.io/acme/app:cu121")},
    {"cuda repository token", "image.cuda_name", "block", Base::rocm, with_image("ghcr.io/acme/app-cuda")},
    {"tensorflow gpu tag", "image.cuda_name", "block", Base::rocm, with_image("tensorflow/tensorflow:latest-gpu"),
     "image", "rocm/tensorflow"},
    {"vllm cuda image suggests rocm/vllm", "image.cuda_name", "block", Base::rocm,
     with_image("ghcr.io/acme/vllm:cuda"), "image", "rocm/vllm"},
    {"barracuda is not CUDA", "image.cuda_name", "pass", Base::rocm, with_image("ghcr.io/acme/barracuda:latest")},
    {"cudatoolkit-free is not CUDA", "image.cuda_name", "pass", Base::rocm,
     with_image("ghcr.io/acme/cudatoolkit-free:1.0")},
    {"tensorflow without gpu tag", "image.cuda_name", "pass", Base::rocm, with_image("tensorflow/tensorflow:2.16.1")},
    {"cuda image without intent is not this rule's", "image.cuda_name", "pass", Base::undeclared,
     with_image("nvidia/cuda:12.4.0-runtime-ubuntu22.04")},
    {"cuda image with NVIDIA intent", "image.cuda_name", "pass", Base::nvidia, {}},

    // image.cuda_metadata
    {"rocm catalog metadata", "image.cuda_metadata", "pass", Base::rocm,
     [](Spec&, Image& i) { i = rocm_catalog_entry(); }},
    {"unknown metadata", "image.cuda_metadata", "pass", Base::rocm, {}},
    {"image env CUDA_VERSION", "image.cuda_metadata", "block", Base::rocm, with_image_env("CUDA_VERSION", "12.4.0"),
     "image.env.CUDA_VERSION", "ROCm base"},
    {"image env NV_CUDA_LIB_VERSION", "image.cuda_metadata", "block", Base::rocm,
     with_image_env("NV_CUDA_LIB_VERSION", "12.4.0-1")},
    {"image label com.nvidia.*", "image.cuda_metadata", "block", Base::rocm,
     with_image_label("com.nvidia.volumes.needed", "nvidia_driver"), "image.labels.com.nvidia.volumes.needed"},
    {"image label runtime cuda", "image.cuda_metadata", "block", Base::rocm,
     with_image_label("io.junglegrid.runtime", "CUDA")},
    {"cuda metadata without intent is not this rule's", "image.cuda_metadata", "pass", Base::undeclared,
     with_image_env("CUDA_VERSION", "12.4.0")},

    // command.nvidia_tool
    {"python infer.py", "command.nvidia_tool", "pass", Base::rocm, {}},
    {"nvidia-smi", "command.nvidia_tool", "block", Base::rocm, with_command({"nvidia-smi"}), "command", "rocm-smi"},
    {"nvidia-smi inside a shell line", "command.nvidia_tool", "block", Base::rocm,
     with_command({"bash", "-c", "nvidia-smi && python x.py"}), "command", "amd-smi"},
    {"nvcc by path", "command.nvidia_tool", "block", Base::rocm, with_command({"/usr/local/bin/nvcc", "k.cu"}),
     "command", "hipcc"},
    {"nsys", "command.nvidia_tool", "block", Base::rocm, with_command({"nsys", "profile", "python", "x.py"})},
    {"NCU upper case", "command.nvidia_tool", "block", Base::rocm, with_command({"NCU", "python", "x.py"})},
    {"mps daemon", "command.nvidia_tool", "block", Base::rocm, with_command({"nvidia-cuda-mps-control", "-d"})},
    {"--gpus all", "command.nvidia_tool", "block", Base::rocm, with_command({"podman", "run", "--gpus", "all", "x"}),
     "command", "/dev/kfd"},
    {"--gpus=all", "command.nvidia_tool", "block", Base::rocm, with_command({"docker", "run", "--gpus=all", "x"})},
    {"--runtime nvidia", "command.nvidia_tool", "block", Base::rocm,
     with_command({"docker", "run", "--runtime", "nvidia", "x"})},
    {"--runtime=nvidia", "command.nvidia_tool", "block", Base::rocm, with_command({"docker run --runtime=nvidia x"})},
    {"rocm-smi", "command.nvidia_tool", "pass", Base::rocm, with_command({"rocm-smi", "--showuse"})},
    {"--runtime runc", "command.nvidia_tool", "pass", Base::rocm, with_command({"podman", "--runtime", "runc"})},
    {"tool names inside longer words", "command.nvidia_tool", "pass", Base::rocm,
     with_command({"python", "nvcc_notes.py", "--out", "nvidia-smi-like.txt"})},
    {"nvidia-smi with ROCm image metadata", "command.nvidia_tool", "block", Base::undeclared,
     [](Spec& s, Image& i) { s.command = {"nvidia-smi"}; i = rocm_catalog_entry(); }},
    {"nvidia-smi without intent is not this rule's", "command.nvidia_tool", "pass", Base::undeclared,
     with_command({"nvidia-smi"})},

    // command.cuda_wheels
    {"no wheels", "command.cuda_wheels", "pass", Base::rocm, {}},
    {"cu121 index url", "command.cuda_wheels", "block", Base::rocm,
     with_command({"pip", "install", "torch", "--index-url", "https://download.pytorch.org/whl/cu121"}), "command",
     "whl/rocm"},
    {"nightly cu124 extra index", "command.cuda_wheels", "block", Base::rocm,
     with_command({"pip install torch --extra-index-url=https://download.pytorch.org/whl/nightly/cu124"})},
    {"nvidia-*-cu12 package", "command.cuda_wheels", "block", Base::rocm,
     with_command({"pip", "install", "nvidia-cublas-cu12==12.1.3.1"})},
    {"+cu121 local version", "command.cuda_wheels", "block", Base::rocm,
     with_command({"pip", "install", "torch==2.3.0+cu121"})},
    {"cupy-cuda12x", "command.cuda_wheels", "block", Base::rocm, with_command({"pip", "install", "cupy-cuda12x"})},
    {"jax cuda extra", "command.cuda_wheels", "block", Base::rocm, with_command({"pip", "install", "jax[cuda12]"})},
    {"rocm wheel index", "command.cuda_wheels", "pass", Base::rocm,
     with_command({"pip", "install", "torch", "--index-url", "https://download.pytorch.org/whl/rocm6.2"})},
    {"cudatoolkit-free package", "command.cuda_wheels", "pass", Base::rocm,
     with_command({"pip", "install", "cudatoolkit-free"})},

    // env.nvidia
    {"no NVIDIA variables", "env.nvidia", "pass", Base::rocm, with_env("ROCR_VISIBLE_DEVICES", "0")},
    {"NVIDIA_VISIBLE_DEVICES", "env.nvidia", "block", Base::rocm, with_env("NVIDIA_VISIBLE_DEVICES", "all"),
     "environment.NVIDIA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES"},
    {"NVIDIA_DRIVER_CAPABILITIES", "env.nvidia", "block", Base::rocm,
     with_env("NVIDIA_DRIVER_CAPABILITIES", "compute,utility"), "environment.NVIDIA_DRIVER_CAPABILITIES"},
    {"NVIDIA_REQUIRE_CUDA", "env.nvidia", "block", Base::rocm, with_env("NVIDIA_REQUIRE_CUDA", "cuda>=12.0")},
    {"NVIDIA variables without intent", "env.nvidia", "pass", Base::undeclared,
     with_env("NVIDIA_VISIBLE_DEVICES", "all")},

    // path.nvidia_device
    {"no NVIDIA paths", "path.nvidia_device", "pass", Base::rocm, with_command({"/opt/rocm/bin/rocminfo"})},
    {"/dev/nvidia0 in the command", "path.nvidia_device", "block", Base::rocm, with_command({"ls", "/dev/nvidia0"}),
     "command", "/dev/kfd"},
    {"/proc/driver/nvidia", "path.nvidia_device", "block", Base::rocm,
     with_command({"cat", "/proc/driver/nvidia/version"})},
    {"/usr/local/cuda-12.4", "path.nvidia_device", "block", Base::rocm,
     with_command({"/usr/local/cuda-12.4/bin/nvprune"})},
    {"/usr/local/cuda in an env value", "path.nvidia_device", "block", Base::rocm,
     with_env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64:/usr/lib"), "environment.LD_LIBRARY_PATH"},
    {"/usr/local/cudatoolkit-free is not CUDA", "path.nvidia_device", "pass", Base::rocm,
     with_command({"ls", "/usr/local/cudatoolkit-free"})},

    // labels.nvidia
    {"AMD label", "labels.nvidia", "pass", Base::rocm, with_label("amd.com/gpu", "1")},
    {"nvidia.com/gpu label", "labels.nvidia", "block", Base::rocm, with_label("nvidia.com/gpu", "1"), "labels",
     "amd.com/gpu"},
    {"com.nvidia label", "labels.nvidia", "block", Base::rocm, with_label("com.nvidia.cuda.version", "12")},
    {"nvidia label with NVIDIA intent", "labels.nvidia", "pass", Base::nvidia, with_label("nvidia.com/gpu", "1")},

    // framework.cuda_only
    {"pytorch-rocm", "framework.cuda_only", "pass", Base::rocm, {}},
    {"pytorch-cuda with runtime rocm", "framework.cuda_only", "block", Base::undeclared,
     [](Spec& s, Image&) { s.runtime = "rocm"; s.framework = "pytorch-cuda"; }, "framework", "pytorch-rocm"},
    {"tensorrt-llm with AMD vendor", "framework.cuda_only", "block", Base::undeclared,
     [](Spec& s, Image&) { s.gpu_vendor = "AMD"; s.framework = "tensorrt-llm"; }, "framework", "vllm-rocm"},
    {"cuda framework under NVIDIA intent", "framework.cuda_only", "pass", Base::nvidia,
     [](Spec& s, Image&) { s.framework = "pytorch-cuda"; }},

    // image.rocm_on_nvidia
    {"cuda image with NVIDIA intent", "image.rocm_on_nvidia", "pass", Base::nvidia, {}},
    {"rocm image without NVIDIA intent", "image.rocm_on_nvidia", "pass", Base::rocm, {}},
    {"rocm/pytorch with NVIDIA intent", "image.rocm_on_nvidia", "block", Base::nvidia,
     with_image("rocm/pytorch:latest"), "image", "NVIDIA (CUDA) image"},
    {"ROCm image env with runtime cuda", "image.rocm_on_nvidia", "block", Base::nvidia,
     [](Spec& s, Image& i) { s.image = "ghcr.io/acme/app:latest"; i = rocm_catalog_entry(); }},

    // intent.unknown_cuda_heavy (warns: routed to NVIDIA only)
    {"nothing CUDA-looking", "intent.unknown_cuda_heavy", "pass", Base::undeclared, {}},
    {"declared AMD intent", "intent.unknown_cuda_heavy", "pass", Base::rocm, {}},
    {"declared NVIDIA intent", "intent.unknown_cuda_heavy", "pass", Base::nvidia, {}},
    {"undeclared nvcr.io image", "intent.unknown_cuda_heavy", "warn", Base::undeclared,
     with_image("nvcr.io/nvidia/pytorch:24.01-py3"), "image", "gpu_vendor: amd + runtime: rocm"},
    {"undeclared nvidia-smi", "intent.unknown_cuda_heavy", "warn", Base::undeclared, with_command({"nvidia-smi"}),
     "command"},
    {"ROCm image metadata is explicit intent", "intent.unknown_cuda_heavy", "pass", Base::undeclared,
     [](Spec& s, Image& i) { s.command = {"nvidia-smi"}; i = rocm_catalog_entry(); }},
    {"gpu_vendor any is no intent", "intent.unknown_cuda_heavy", "warn", Base::undeclared,
     [](Spec& s, Image&) { s.gpu_vendor = "any"; s.image = "nvidia/cuda:12.4.0-base"; }},
};

const std::vector<std::string> k_blocking_rules = {"intent.conflict",     "gpu.required",        "image.cuda_name",
                                                   "image.cuda_metadata", "command.nvidia_tool", "command.cuda_wheels",
                                                   "env.nvidia",          "path.nvidia_device",  "labels.nvidia",
                                                   "framework.cuda_only", "image.rocm_on_nvidia"};

}  // namespace

TEST_CASE("screen rules report the expected status for each case", "[screen]") {
  for (const auto& c : k_rule_cases) run_case(c);
}

TEST_CASE("screen rules: every blocking rule has a pass and a block case", "[screen]") {
  require_coverage(k_rule_cases, k_blocking_rules, "block");
  require_coverage(k_rule_cases, {"intent.unknown_cuda_heavy"}, "warn");
}

TEST_CASE("screen::rule_table lists each rule once, in rule_ids order", "[screen]") {
  auto table = rule_table();
  REQUIRE(table.size() == rule_ids().size());
  std::set<std::string_view> seen;
  for (std::size_t i = 0; i < table.size(); ++i) {
    CHECK(table[i].id == rule_ids()[i]);
    CHECK(seen.insert(table[i].id).second);
  }
  for (const auto& id : k_blocking_rules) CHECK(seen.count(id) == 1);
}
