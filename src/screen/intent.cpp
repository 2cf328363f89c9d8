#include <array>

#include "screen/facts.hpp"

namespace jgrid::screen {

namespace {

constexpr std::array<FrameworkHint, 11> k_frameworks = {{
    {"pytorch-rocm", Side::amd, ""},
    {"vllm-rocm", Side::amd, ""},
    {"llama.cpp-rocm", Side::amd, ""},
    {"onnx-rocm", Side::amd, ""},
    {"pytorch-cuda", Side::nvidia, "pytorch-rocm"},
    {"vllm-cuda", Side::nvidia, "vllm-rocm"},
    {"llama.cpp-cuda", Side::nvidia, "llama.cpp-rocm"},
    {"onnx-cuda", Side::nvidia, "onnx-rocm"},
    {"tensorrt", Side::nvidia, "onnx-rocm (ONNX Runtime with MIGraphX)"},
    {"tensorrt-llm", Side::nvidia, "vllm-rocm"},
    {"triton-cuda", Side::nvidia, "vllm-rocm or onnx-rocm"},
}};

const char* side_name(Side side) { return side == Side::amd ? "AMD/ROCm" : "NVIDIA/CUDA"; }

void declare_value(std::vector<Declaration>& out, std::string_view field, const std::string& value,
                   std::string_view amd_word, std::string_view nvidia_word) {
  if (iequals(value, amd_word)) out.push_back({Side::amd, field, std::string(field) + " " + value});
  if (iequals(value, nvidia_word)) out.push_back({Side::nvidia, field, std::string(field) + " " + value});
}

void declare_label(std::vector<Declaration>& out, const std::string& key, const std::string& value) {
  if (iequals(key, "io.junglegrid.runtime")) {
    if (iequals(value, "rocm")) out.push_back({Side::amd, "labels", "label " + key + "=" + value});
    if (iequals(value, "cuda")) out.push_back({Side::nvidia, "labels", "label " + key + "=" + value});
  } else if (istarts_with(key, "amd.com/")) {
    out.push_back({Side::amd, "labels", "label " + key});
  } else if (istarts_with(key, "nvidia.com/") || istarts_with(key, "com.nvidia.")) {
    out.push_back({Side::nvidia, "labels", "label " + key});
  }
}

bool declares(const std::vector<Declaration>& declarations, Side side) {
  for (const auto& declaration : declarations)
    if (declaration.side == side) return true;
  return false;
}

void settle(Intent& intent, std::string_view vendor, std::string_view confidence) {
  intent.vendor = vendor;
  intent.runtime = vendor == "amd" ? "rocm" : vendor == "nvidia" ? "cuda" : "";
  intent.confidence = confidence;
}

// No job declaration and no ROCm image metadata: infer from names.
void infer(Intent& intent, const Facts& facts) {
  if (const Evidence* cuda = cuda_heavy_evidence(facts)) {
    intent.unknown_cuda_heavy = true;
    intent.reasons.push_back(cuda->field + " looks CUDA-only: " + cuda->found);
    settle(intent, "nvidia", "medium");
  } else if (facts.rocm_name) {
    intent.reasons.push_back("image name says ROCm: " + facts.rocm_name.found);
    settle(intent, "amd", "medium");
  } else if (facts.options.unknown_stack_any_vendor) {
    intent.reasons.push_back("no GPU vendor, runtime or framework declared; the fleet lets unknown stacks use any vendor");
    settle(intent, "", "low");
  } else {
    intent.unknown_stack = true;
    intent.reasons.push_back("no GPU vendor, runtime or framework declared and nothing about the image (" +
                             metadata_source(facts.image) + ") says ROCm: NVIDIA capacity only");
    settle(intent, "nvidia", "low");
  }
}

}  // namespace

const std::string_view k_rocm_framework_hints = "pytorch-rocm, vllm-rocm, llama.cpp-rocm, onnx-rocm";

const FrameworkHint* find_framework(std::string_view name) {
  for (const auto& hint : k_frameworks)
    if (iequals(name, hint.name)) return &hint;
  return nullptr;
}

std::vector<Declaration> job_declarations(const model::JobSpec& spec) {
  std::vector<Declaration> out;
  declare_value(out, "gpu_vendor", spec.gpu_vendor, "amd", "nvidia");
  declare_value(out, "runtime", spec.runtime, "rocm", "cuda");
  if (const FrameworkHint* hint = find_framework(spec.framework))
    out.push_back({hint->side, "framework", "framework " + spec.framework});
  for (const auto& [key, value] : spec.labels) declare_label(out, key, value);
  return out;
}

Intent derive_intent(const Facts& facts) {
  Intent intent;
  for (const auto& declaration : facts.declarations)
    intent.reasons.push_back(declaration.text + ": " + side_name(declaration.side));
  bool amd = declares(facts.declarations, Side::amd);
  intent.explicit_nvidia = declares(facts.declarations, Side::nvidia);
  intent.explicit_rocm = amd || bool(facts.rocm_metadata);
  if (facts.rocm_metadata) intent.reasons.push_back("image " + facts.rocm_metadata.found + ": AMD/ROCm");
  if (amd && intent.explicit_nvidia) {
    intent.reasons.push_back("the job declares both AMD/ROCm and NVIDIA/CUDA");
    settle(intent, "", "low");
  } else if (intent.explicit_nvidia) {
    settle(intent, "nvidia", "high");  // the job's own word beats its image's labels
  } else if (intent.explicit_rocm) {
    settle(intent, "amd", "high");
  } else {
    infer(intent, facts);
  }
  return intent;
}

}  // namespace jgrid::screen
