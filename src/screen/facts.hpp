#pragma once
// Facts: everything the rules read, computed once per screening so each rule
// is a few lines of formatting. Valid while the spec and image it was built
// from live (ref holds views into spec.image).
#include <string>
#include <string_view>
#include <vector>

#include "jgrid/model/job_spec.hpp"
#include "jgrid/screen/screen.hpp"
#include "screen/signals.hpp"

namespace jgrid::screen {

enum class Side { amd, nvidia };

// A framework hint of docs/rocm.md §1 and, for CUDA-only ones, its ROCm counterpart.
struct FrameworkHint {
  std::string_view name;
  Side side;
  std::string_view rocm_alternative;
};
// nullptr when `name` is none of the recognised hints (case-insensitive).
const FrameworkHint* find_framework(std::string_view name);
extern const std::string_view k_rocm_framework_hints;  // "pytorch-rocm, vllm-rocm, ..."

// One stack the job itself declares (not the image): field is gpu_vendor,
// runtime, framework or labels; text reads "gpu_vendor nvidia".
struct Declaration {
  Side side;
  std::string_view field;
  std::string text;
};
// In field order gpu_vendor, runtime, framework, labels.
std::vector<Declaration> job_declarations(const model::JobSpec& spec);

struct Facts {
  const model::JobSpec& spec;
  const ImageMetadata& image;
  ScreenOptions options;
  ImageRef ref;
  std::string command;  // command and args joined
  Evidence cuda_name, rocm_name, cuda_metadata, rocm_metadata;
  Evidence nvidia_tool, cuda_wheels, nvidia_path, env_nvidia;
  std::vector<Declaration> declarations;
  Intent intent;
};

Facts gather_facts(const model::JobSpec& spec, const ImageMetadata& image, const ScreenOptions& options = {});
// Intent from the signals of `facts` (its intent member is not read).
Intent derive_intent(const Facts& facts);
// The first piece of evidence that the image or command is CUDA-only.
const Evidence* cuda_heavy_evidence(const Facts& facts);

}  // namespace jgrid::screen
