#include <catch2/catch.hpp>

#include "screen/signals.hpp"

using namespace jgrid::screen;

TEST_CASE("screen::join_command joins with single spaces", "[screen]") {
  CHECK(join_command({}) == "");
  CHECK(join_command({"python", "-c", "print(1)"}) == "python -c print(1)");
}

TEST_CASE("screen::command_nvidia_tool finds NVIDIA tools and flags", "[screen]") {
  CHECK(command_nvidia_tool("nvidia-smi -L").found == "nvidia-smi");
  CHECK(command_nvidia_tool("nvidia-smi -L").fix.find("rocm-smi or amd-smi") != std::string_view::npos);
  CHECK(command_nvidia_tool("make CC=/usr/local/bin/nvcc").found == "nvcc");
  CHECK(command_nvidia_tool("nvidia-cuda-mps-server").found == "nvidia-cuda-mps-server");
  CHECK(command_nvidia_tool("podman run --device nvidia.com/gpu=all x").found == "--device nvidia.com/gpu");
  CHECK(command_nvidia_tool("docker run --runtime nvidia x").found == "--runtime nvidia");
  CHECK_FALSE(command_nvidia_tool("podman run --runtime runc --gpus-per-task 1 x"));
  CHECK_FALSE(command_nvidia_tool("python nsys_report.py ncu.csv"));
  CHECK_FALSE(command_nvidia_tool(""));
}

TEST_CASE("screen::command_cuda_wheels finds CUDA wheel indexes and packages", "[screen]") {
  CHECK(command_cuda_wheels("pip install torch --index-url https://download.pytorch.org/whl/cu118").found ==
        "the CUDA wheel index …/whl/cu118");
  CHECK(command_cuda_wheels("pip install --pre torch --index-url=https://x.org/whl/nightly/cu126 -U").found ==
        "the CUDA wheel index …/whl/nightly/cu126");
  CHECK(command_cuda_wheels("pip install -f https://download.pytorch.org/whl/cu121/torch_stable.html torch"));
  CHECK(command_cuda_wheels("pip install nvidia-cudnn-cu12>=9").found == "package nvidia-cudnn-cu12");
  CHECK(command_cuda_wheels("pip install 'tensorflow[and-cuda]'"));
  CHECK_FALSE(command_cuda_wheels("pip install torch --index-url https://download.pytorch.org/whl/rocm6.2"));
  CHECK_FALSE(command_cuda_wheels("pip install nvidia-ml-py"));
  CHECK_FALSE(command_cuda_wheels("curl https://example.com/whl/cu1234x"));
}

TEST_CASE("screen::command_uses_torch_cuda matches torch.cuda on word boundaries", "[screen]") {
  CHECK(command_uses_torch_cuda("python -c 'import torch.cuda'"));
  CHECK(command_uses_torch_cuda("x=torch.cuda.device_count()"));
  CHECK_FALSE(command_uses_torch_cuda("python torch.cudax.py"));
  CHECK_FALSE(command_uses_torch_cuda("mytorch.cuda"));
}

TEST_CASE("screen::nvidia_path looks in the command, then in env values", "[screen]") {
  Env env;
  CHECK(nvidia_path("ls /dev/nvidiactl", env).found == "/dev/nvidiactl");
  CHECK(nvidia_path("bash -c 'cat /proc/driver/nvidia/version;'", env).found == "/proc/driver/nvidia/version");
  CHECK(nvidia_path("ls /usr/local/cuda", env).found == "/usr/local/cuda");
  CHECK_FALSE(nvidia_path("ls /usr/local/cudatoolkit-free /opt/rocm", env));
  env["CUDA_HOME"] = "/usr/local/cuda-12.4";
  auto found = nvidia_path("python x.py", env);
  CHECK(found.field == "environment.CUDA_HOME");
  CHECK(found.found == "/usr/local/cuda-12.4");
}

TEST_CASE("screen::env_nvidia matches the NVIDIA container variables exactly", "[screen]") {
  CHECK_FALSE(env_nvidia({{"ROCR_VISIBLE_DEVICES", "0"}}));
  CHECK_FALSE(env_nvidia({{"nvidia_visible_devices", "all"}}));  // environment names are case-sensitive
  auto found = env_nvidia({{"NVIDIA_VISIBLE_DEVICES", "all"}});
  CHECK(found.field == "environment.NVIDIA_VISIBLE_DEVICES");
  CHECK(found.found == "NVIDIA_VISIBLE_DEVICES=all");
}
