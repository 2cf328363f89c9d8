// Rules that only ever warn: each flags something that works but deserves a look.
#include "screen/rules.hpp"

namespace jgrid::screen {

namespace {

const std::string* env_value(const Facts& facts, const std::string& key) {
  auto it = facts.spec.environment.find(key);
  return it == facts.spec.environment.end() ? nullptr : &it->second;
}

}  // namespace

Check check_env_cuda_visible_devices(const Facts& facts) {
  static const std::string k_key = "CUDA_VISIBLE_DEVICES";
  if (!facts.intent.explicit_rocm) return pass("environment", "no ROCm intent: not applicable");
  const std::string* value = env_value(facts, k_key);
  if (!value) return pass("environment", "CUDA_VISIBLE_DEVICES not set");
  return warn("environment." + k_key,
              "CUDA_VISIBLE_DEVICES=" + *value + " is set; HIP honours it, so it narrows the GPUs the grid assigned",
              "prefer ROCR_VISIBLE_DEVICES, or drop it: the grid sets ROCR_VISIBLE_DEVICES to the assigned GPUs");
}

Check check_command_torch_cuda(const Facts& facts) {
  if (!facts.intent.explicit_rocm) return pass("command", "no ROCm intent: not applicable");
  if (!command_uses_torch_cuda(facts.command)) return pass("command", "command does not use torch.cuda");
  return warn("command", "command uses torch.cuda; ROCm builds of PyTorch keep that API on HIP",
              "nothing to change with a ROCm PyTorch image; torch.version.hip tells which build runs");
}

Check check_framework_unknown(const Facts& facts) {
  if (facts.spec.framework.empty()) return pass("framework", "no framework hint");
  if (find_framework(facts.spec.framework)) return pass("framework", "framework hint recognised");
  return warn("framework", "framework hint " + facts.spec.framework + " is not recognised and does not inform routing",
              "use one of " + std::string(k_rocm_framework_hints) + " (or a -cuda hint for NVIDIA)");
}

Check check_image_unknown_stack(const Facts& facts) {
  if (!facts.intent.explicit_rocm) return pass("image", "no ROCm intent: not applicable");
  if (facts.spec.image.empty()) return pass("image", "no image to check");
  if (facts.rocm_name || facts.rocm_metadata) return pass("image", "image says ROCm");
  if (facts.cuda_name || facts.cuda_metadata) return pass("image", "image stack is known (CUDA)");
  return warn("image",
              "image " + facts.spec.image + " does not say which GPU stack it carries (read: " +
                  metadata_source(facts.image) + ")",
              "verify the image contains the ROCm user-space stack (label it io.junglegrid.runtime=rocm to say so)");
}

Check check_intent_no_rocm_evidence(const Facts& facts) {
  const Intent& intent = facts.intent;
  if (intent.explicit_rocm || intent.explicit_nvidia) return pass("intent", "GPU intent declared");
  if (intent.unknown_cuda_heavy) return pass("intent", "the workload looks CUDA-only (intent.unknown_cuda_heavy)");
  if (facts.rocm_name) return pass("image", "image name says ROCm: " + facts.rocm_name.found);
  std::string read = "image " + facts.spec.image + " (" + metadata_source(facts.image) + ")";
  if (!intent.unknown_stack)
    return pass("intent", "no ROCm evidence in " + read + ", and the fleet lets unknown stacks use any vendor");
  return warn("intent",
              "no GPU vendor or runtime declared and nothing in " + read +
                  " says ROCm: the job is routed to NVIDIA capacity only",
              "declare gpu_vendor: amd and runtime: rocm if the image is a ROCm build (or label it "
              "io.junglegrid.runtime=rocm), or gpu_vendor: nvidia");
}

Check check_env_hsa_override(const Facts& facts) {
  static const std::string k_key = "HSA_OVERRIDE_GFX_VERSION";
  const std::string* value = env_value(facts, k_key);
  if (!value) return pass("environment", "HSA_OVERRIDE_GFX_VERSION not set");
  return warn("environment." + k_key, "HSA_OVERRIDE_GFX_VERSION=" + *value + " makes ROCm treat the GPU as another ISA",
              "drop it unless the image's kernels need it for this GPU; wrong values crash or miscompute");
}

}  // namespace jgrid::screen
