#include "screen/diagnose_patterns.hpp"

namespace jgrid::screen {
namespace {

DiagnosisPattern row(const char* code, const char* needle, const char* regex) {
  return {code, needle, std::regex(regex, std::regex::ECMAScript | std::regex::optimize)};
}

// The real lines each row was written from, with their sources, are the
// cases of tests/unit/screen/diagnose_cases.inc.
std::vector<DiagnosisPattern> make_patterns() {
  return {
      // Device files the process may not open (ollama prints "open /dev/kfd: permission denied").
      row("GPU_DEVICE_PERMISSION", "/dev/kfd", R"(/dev/kfd( read-write)?: [Pp]ermission denied)"),
      row("GPU_DEVICE_PERMISSION", "/dev/dri", R"(/dev/dri/\S+: [Pp]ermission denied|[Pp]ermission denied: '/dev/dri/)"),
      row("GPU_DEVICE_PERMISSION", "member of", R"re(is not member of "?(video|render)"? group)re"),
      // CUDA-only parts that screening could not see inside the image.
      row("CUDA_ON_AMD", "NVIDIA driver",
          R"(Found no NVIDIA driver on your system|couldn't communicate with the NVIDIA driver)"),
      row("CUDA_ON_AMD", "cannot open shared object",
          R"(lib(cudart|cublas|cublasLt|cudnn|nvrtc|torch_cuda|nvinfer)\.so[.0-9]*: cannot open shared object file)"),
      row("CUDA_ON_AMD", "nvidia-smi", R"(nvidia-smi: (command )?not found)"),
      row("CUDA_ON_AMD", "CUDA driver version is insufficient", R"(CUDA driver version is insufficient)"),
      row("CUDA_ON_AMD", "No CUDA GPUs are available", R"(No CUDA GPUs are available)"),  // a CUDA build of PyTorch
      row("CUDA_ON_AMD", "ROCMExecutionProvider",
          R"('ROCMExecutionProvider' is not in available provider names.*CUDAExecutionProvider)"),
      // The ROCm user-space stack (or the ROCm build of a framework) missing or mismatched in the image.
      row("ROCM_USERSPACE_MISSING", "cannot open shared object",
          R"(lib(amdhip64|hsa-runtime64|rocblas|MIOpen|hipblas|hipblaslt|rccl|rocm_smi64|amd_smi|hiprtc|rocsolver|rocfft|rocrand|hipfft|hipsparse|roctracer64)\.so[.0-9]*: cannot open shared object file)"),
      row("ROCM_USERSPACE_MISSING", "undefined symbol: hip", R"(undefined symbol: hip\w+)"),
      row("ROCM_USERSPACE_MISSING", "smi", R"((^|[\s:/])(rocm-smi|amd-smi): (command )?not found)"),
      row("ROCM_USERSPACE_MISSING", "rocminfo", R"((^|[\s:/])rocminfo: (command )?not found)"),
      row("ROCM_USERSPACE_MISSING", "Torch not compiled with CUDA enabled", R"(Torch not compiled with CUDA enabled)"),
      row("ROCM_USERSPACE_MISSING", "ROCMExecutionProvider",
          R"('ROCMExecutionProvider' is not in available provider names)"),
      // Code objects for another GPU ISA only.
      row("GPU_ISA_UNSUPPORTED", "hipErrorNoBinaryForGpu", R"(hipErrorNoBinaryForGpu)"),
      row("GPU_ISA_UNSUPPORTED", "invalid device function", R"((HIP|ROCm|CUDA) [Ee]rror:? "?invalid device function)"),
      row("GPU_ISA_UNSUPPORTED", "TensileLibrary", R"(TensileLibrary\.dat: .* for GPU arch : (gfx[0-9a-f]+))"),
      row("GPU_ISA_UNSUPPORTED", "amdgpu is not supported", R"(amdgpu is not supported.*gpu_type=(gfx[0-9a-f]+))"),
      row("GPU_ISA_UNSUPPORTED", "no kernel image is available",
          R"(no kernel image is available for execution on the device)"),
      // GPU memory.
      row("HIP_OUT_OF_MEMORY", "HIP out of memory", R"(HIP out of memory\. Tried to allocate)"),
      row("HIP_OUT_OF_MEMORY", "hipErrorOutOfMemory", R"(hipErrorOutOfMemory)"),
      row("HIP_OUT_OF_MEMORY", "out of memory",
          R"(cudaMalloc failed: out of memory|CUDA error: out of memory|\(hip\w+\(.*\)\) out of memory)"),
      // No GPU visible to the framework.
      row("NO_GPU_VISIBLE", "No HIP GPUs", R"(No HIP GPUs are available)"),
      row("NO_GPU_VISIBLE", "hipErrorNoDevice", R"(hipErrorNoDevice)"),
      row("NO_GPU_VISIBLE", "no ROCm-capable device", R"(no ROCm-capable device is detected)"),
      row("NO_GPU_VISIBLE", "kfd driver not loaded", R"(kfd driver not loaded)"),
      row("NO_GPU_VISIBLE", "/dev/kfd", R"(/dev/kfd( read-write)?: No such file or directory)"),
      row("NO_GPU_VISIBLE", "No devices found", R"(Could not initialize Tensile host: No devices found)"),
      row("NO_GPU_VISIBLE", "hipErrorInvalidDevice", R"(hipErrorInvalidDevice\b)"),
      row("NO_GPU_VISIBLE", "no compatible amdgpu devices", R"(no compatible amdgpu devices detected)"),
      row("NO_GPU_VISIBLE", "Failed to infer device type", R"(Failed to infer device type)"),  // vLLM found no platform
  };
}

}  // namespace

const std::vector<DiagnosisPattern>& diagnosis_patterns() {
  static const std::vector<DiagnosisPattern> patterns = make_patterns();
  return patterns;
}

}  // namespace jgrid::screen
