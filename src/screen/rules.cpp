#include "screen/rules.hpp"

#include <array>

namespace jgrid::screen {

namespace {

constexpr const char* k_not_rocm = "no ROCm intent: not applicable";

struct RocmImage {
  std::string_view project;
  std::string_view image;
};
constexpr std::array<RocmImage, 4> k_rocm_images = {
    {{"pytorch", "rocm/pytorch"}, {"vllm", "rocm/vllm"}, {"tensorflow", "rocm/tensorflow"}, {"jax", "rocm/jax"}}};

std::string rocm_image_fix(const ImageRef& ref) {
  for (const auto& candidate : k_rocm_images)
    if (any_image_token(ref.repository, [&](std::string_view token) { return iequals(token, candidate.project); }))
      return "use a ROCm image instead, e.g. " + std::string(candidate.image) +
             " (or rocm/vllm, rocm/pytorch, a *:rocm tag of the same project)";
  return "use a ROCm image instead, e.g. rocm/pytorch, rocm/vllm or a *:rocm tag of the same project";
}

const Declaration* first_of(const Facts& facts, Side side) {
  for (const auto& declaration : facts.declarations)
    if (declaration.side == side) return &declaration;
  return nullptr;
}

Check intent_conflict(const Facts& facts) {
  const auto& all = facts.declarations;
  for (std::size_t i = 1; i < all.size(); ++i)
    if (all[i].side != all[0].side)
      return block(std::string(all[i].field), all[0].text + " contradicts " + all[i].text,
                   "pick one stack: gpu_vendor: amd + runtime: rocm (with -rocm framework hints and AMD labels), "
                   "or gpu_vendor: nvidia + runtime: cuda");
  return pass("intent", all.empty() ? "no stack declared" : "the declared stack is consistent");
}

Check gpu_required(const Facts& facts) {
  const auto& spec = facts.spec;
  if (spec.gpu_count <= 0)
    return block("gpu_count", "gpu_count is " + std::to_string(spec.gpu_count) + ": CPU-only workloads are not served",
                 "request at least one GPU (gpu_count: 1 or more)");
  if (!spec.requires_gpu)
    return block("requires_gpu", "requires_gpu is false: CPU-only workloads are not served",
                 "request a GPU (drop requires_gpu: false)");
  return pass("gpu_count", "requests " + std::to_string(spec.gpu_count) + " GPU(s)");
}

Check image_cuda_name(const Facts& facts) {
  if (!facts.intent.explicit_rocm) return pass("image", k_not_rocm);
  if (!facts.cuda_name) return pass("image", "image name says nothing of CUDA");
  return block("image", "image " + facts.spec.image + " names a CUDA build: " + facts.cuda_name.found,
               facts.cuda_name.fix.empty() ? rocm_image_fix(facts.ref) : facts.cuda_name.fix);
}

Check image_cuda_metadata(const Facts& facts) {
  if (!facts.intent.explicit_rocm) return pass("image", k_not_rocm);
  if (!facts.image.known) return pass("image", "no image metadata known (name only)");
  std::string source = " (" + metadata_source(facts.image) + ")";
  if (!facts.cuda_metadata) return pass("image", "image labels and env say nothing of CUDA" + source);
  return block(facts.cuda_metadata.field,
               "image " + facts.spec.image + " is a CUDA build: " + facts.cuda_metadata.found + source,
               "rebuild the image from a ROCm base (e.g. rocm/dev-ubuntu-22.04 or rocm/pytorch)");
}

Check command_nvidia_tool(const Facts& facts) {
  if (!facts.intent.explicit_rocm) return pass("command", k_not_rocm);
  if (!facts.nvidia_tool) return pass("command", "command calls no NVIDIA tool");
  return block("command", "command uses " + facts.nvidia_tool.found + ", which needs NVIDIA GPUs or the CUDA toolkit",
               std::string(facts.nvidia_tool.fix));
}

Check command_cuda_wheels(const Facts& facts) {
  if (!facts.intent.explicit_rocm) return pass("command", k_not_rocm);
  if (!facts.cuda_wheels) return pass("command", "command installs no CUDA wheels");
  return block("command", "command installs CUDA wheels: " + facts.cuda_wheels.found,
               "install from the ROCm wheel index instead (e.g. --index-url https://download.pytorch.org/whl/rocm6.2) "
               "and drop nvidia-*-cu1x packages");
}

Check env_nvidia(const Facts& facts) {
  if (!facts.intent.explicit_rocm) return pass("environment", k_not_rocm);
  if (!facts.env_nvidia) return pass("environment", "no NVIDIA container variables");
  return block(facts.env_nvidia.field, "environment sets " + facts.env_nvidia.found + " (NVIDIA container toolkit)",
               "remove it; GPUs are selected with ROCR_VISIBLE_DEVICES, which the grid sets to the assigned GPUs");
}

Check path_nvidia_device(const Facts& facts) {
  if (!facts.intent.explicit_rocm) return pass("command", k_not_rocm);
  if (!facts.nvidia_path) return pass("command", "no NVIDIA device or toolkit paths");
  return block(
      facts.nvidia_path.field,
      facts.nvidia_path.field + " hard-codes " + facts.nvidia_path.found + ", an NVIDIA device or toolkit path",
      "remove it: the grid attaches /dev/kfd and /dev/dri, and ROCm lives under /opt/rocm");
}

Check labels_nvidia(const Facts& facts) {
  if (!facts.intent.explicit_rocm) return pass("labels", k_not_rocm);
  for (const auto& [key, value] : facts.spec.labels)
    if (istarts_with(key, "nvidia.com/") || istarts_with(key, "com.nvidia."))
      return block("labels", "job label " + key + " asks for NVIDIA hardware",
                   "use AMD labels instead, e.g. amd.com/gpu");
  return pass("labels", "no NVIDIA labels");
}

Check framework_cuda_only(const Facts& facts) {
  if (!facts.intent.explicit_rocm) return pass("framework", k_not_rocm);
  const FrameworkHint* hint = find_framework(facts.spec.framework);
  if (!hint || hint->side != Side::nvidia) return pass("framework", "framework hint is not CUDA-only");
  return block("framework", "framework " + facts.spec.framework + " is CUDA-only",
               "use framework " + std::string(hint->rocm_alternative));
}

Check image_rocm_on_nvidia(const Facts& facts) {
  const Declaration* nvidia = first_of(facts, Side::nvidia);
  if (!nvidia) return pass("image", "no NVIDIA intent: not applicable");
  const Evidence& rocm = facts.rocm_name ? facts.rocm_name : facts.rocm_metadata;
  if (!rocm) return pass("image", "image does not say ROCm");
  return block(rocm.field,
               "image " + facts.spec.image + " is a ROCm build (" + rocm.found + ") but the job asks for NVIDIA (" +
                   nvidia->text + ")",
               "use an NVIDIA (CUDA) image, or declare gpu_vendor: amd + runtime: rocm");
}

Check intent_unknown_cuda_heavy(const Facts& facts) {
  if (!facts.intent.unknown_cuda_heavy)
    return pass("intent", facts.intent.explicit_rocm || facts.intent.explicit_nvidia ? "GPU intent declared"
                                                                                     : "nothing looks CUDA-only");
  const Evidence& cuda = *cuda_heavy_evidence(facts);
  std::string what = cuda.field == "image" ? "image " + facts.spec.image : cuda.field;
  return warn(cuda.field,
              "no GPU vendor or runtime declared and " + what + " looks CUDA-only (" + cuda.found +
                  "): the job is routed to NVIDIA capacity only",
              "declare gpu_vendor: amd + runtime: rocm with a ROCm image (e.g. rocm/pytorch) to run on AMD, "
              "or gpu_vendor: nvidia");
}

// Table order is the order of Screening::checks and rule_ids().
constexpr std::array<Rule, 18> k_rules = {{
    {"intent.conflict", intent_conflict},
    {"gpu.required", gpu_required},
    {"image.cuda_name", image_cuda_name},
    {"image.cuda_metadata", image_cuda_metadata},
    {"command.nvidia_tool", command_nvidia_tool},
    {"command.cuda_wheels", command_cuda_wheels},
    {"env.nvidia", env_nvidia},
    {"path.nvidia_device", path_nvidia_device},
    {"labels.nvidia", labels_nvidia},
    {"framework.cuda_only", framework_cuda_only},
    {"image.rocm_on_nvidia", image_rocm_on_nvidia},
    {"intent.unknown_cuda_heavy", intent_unknown_cuda_heavy},
    {"intent.no_rocm_evidence", check_intent_no_rocm_evidence},
    {"env.cuda_visible_devices", check_env_cuda_visible_devices},
    {"command.torch_cuda", check_command_torch_cuda},
    {"framework.unknown", check_framework_unknown},
    {"image.unknown_stack", check_image_unknown_stack},
    {"env.hsa_override", check_env_hsa_override},
}};

}  // namespace

std::span<const Rule> rule_table() { return k_rules; }

Check pass(std::string field, std::string message) {
  return Check{{}, "pass", std::move(field), std::move(message), {}};
}

Check warn(std::string field, std::string message, std::string fix) {
  return Check{{}, "warn", std::move(field), std::move(message), std::move(fix)};
}

Check block(std::string field, std::string message, std::string fix) {
  return Check{{}, "block", std::move(field), std::move(message), std::move(fix)};
}

}  // namespace jgrid::screen
