#pragma once
// Screening: (job spec, locally known image metadata) -> one Check per rule of
// docs/rocm.md §2, plus the accelerator intent of docs/rocm.md §1 that the router uses.
// Pure: no I/O, no clock, no global state beyond constant tables; every
// function here is thread-safe and deterministic.
//
// Rules, in table order (rule_ids()); "ROCm intent" = Intent::explicit_rocm:
//   intent.conflict          block  job-declared vendor/runtime/framework/labels contradict (any intent)
//   gpu.required             block  gpu_count <= 0 or requires_gpu false (any intent)
//   image.cuda_name          block  ROCm intent + image registry/repository/tag says CUDA
//   image.cuda_metadata      block  ROCm intent + image labels/env say CUDA
//   command.nvidia_tool      block  ROCm intent + command calls an NVIDIA tool or flag
//   command.cuda_wheels      block  ROCm intent + command installs CUDA wheels
//   env.nvidia               block  ROCm intent + NVIDIA_* container-toolkit variables
//   path.nvidia_device       block  ROCm intent + NVIDIA device/driver/toolkit paths
//   labels.nvidia            block  ROCm intent + job labels nvidia.com/*, com.nvidia.*
//   framework.cuda_only      block  ROCm intent + a known CUDA-only framework hint
//   image.rocm_on_nvidia     block  NVIDIA intent + image is ROCm by name, label or env
//   intent.unknown_cuda_heavy warn  no intent + image or command looks CUDA-only
//   intent.no_rocm_evidence  warn   no intent + nothing says ROCm: NVIDIA capacity only
//   env.cuda_visible_devices warn   ROCm intent + CUDA_VISIBLE_DEVICES (HIP honours it)
//   command.torch_cuda       warn   ROCm intent + torch.cuda in the command (ROCm PyTorch keeps it)
//   framework.unknown        warn   framework hint none of docs/rocm.md §1's lists
//   image.unknown_stack      warn   ROCm intent + image whose stack cannot be told
//   env.hsa_override         warn   HSA_OVERRIDE_GFX_VERSION set (any intent)
// A rule that does not apply yields `pass`. The last seven never block.
//
// intent.unknown_cuda_heavy is a warning, not a block: such a job is valid,
// it is only restricted to NVIDIA capacity (Intent::unknown_cuda_heavy and
// Intent::vendor == "nvidia" tell the router); the submit path turns "no
// NVIDIA capacity on the fleet" into 503 CAPACITY_UNAVAILABLE, not 422.
//
// AMD only with ROCm evidence: a job that neither declares a stack nor
// carries ROCm in its image's name or metadata is unknown-stack
// (Intent::unknown_stack) and goes to NVIDIA capacity only, like a
// CUDA-heavy one, unless ScreenOptions::unknown_stack_any_vendor restores
// "any vendor" (a fleet's choice that leaves the contract).
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "jgrid/model/job_spec.hpp"

namespace jgrid::screen {

// What a container engine's `image inspect`, the fleet's image catalog or
// the image's registry says about the job's image. known == false: nothing
// is known (labels and env are then empty and only the image name is
// screened).
struct ImageMetadata {
  std::map<std::string, std::string> labels, env;
  std::string digest;
  bool known = false;
  // Where labels and env came from: "catalog", "local" or "registry"; when
  // !known, "name only" with why in parentheses ("name only (registry:
  // manifest not found)") or empty.
  std::string source;
};

// image.source when known; else "name only", with its reason when it has one.
std::string metadata_source(const ImageMetadata& image);

// Screening choices a fleet makes.
struct ScreenOptions {
  // Unknown-stack GPU jobs may go to any vendor (leaves the contract:
  // a CUDA build under a neutral name can then land on AMD).
  bool unknown_stack_any_vendor = false;
};

// One rule's verdict (docs/api.md §2.1 Check).
struct Check {
  std::string rule;     // stable rule id, one of rule_ids()
  std::string status;   // "pass" | "warn" | "block"
  std::string field;    // what was looked at: "image", "command", "environment.KEY", "labels", ...
  std::string message;  // what was found, naming the offending value
  std::string fix;      // what to change; empty on pass
};

// Accelerator intent (docs/rocm.md §1).
struct Intent {
  // The vendor the router must match: "amd", "nvidia" or "" (any vendor).
  // "amd" for explicit ROCm intent or a ROCm image name; "nvidia" for explicit
  // NVIDIA intent or unknown_cuda_heavy; "" when nothing is known or the
  // job-declared intent contradicts itself (then screening blocks anyway).
  std::string vendor;
  std::string runtime;  // "rocm" | "cuda" | "", follows vendor
  // gpu_vendor amd, runtime rocm, a ROCm framework hint, a ROCm job label
  // (io.junglegrid.runtime=rocm, amd.com/*) or ROCm image metadata.
  bool explicit_rocm = false;
  // gpu_vendor nvidia, runtime cuda, a CUDA-only framework hint or an NVIDIA
  // job label (io.junglegrid.runtime=cuda, nvidia.com/*, com.nvidia.*).
  bool explicit_nvidia = false;
  // No explicit intent and the image or command looks CUDA-only.
  bool unknown_cuda_heavy = false;
  // No explicit intent, nothing CUDA-only and nothing that says ROCm: routed
  // to NVIDIA capacity only (vendor "nvidia") unless the options say any.
  bool unknown_stack = false;
  std::string image_source = "name only";  // metadata_source() of what was read
  std::vector<std::string> reasons;  // one line per signal that decided it
  std::string confidence = "low";    // "high": explicit; "medium": inferred from names; "low": unknown/contradictory
};

struct Screening {
  std::vector<Check> checks;  // one per rule, in rule_ids() order
  Intent intent;

  bool blocked() const;                            // any check is "block"
  std::vector<std::string> blocked_rules() const;  // rule ids of blocks, in order
  // Fixes of the blocking checks, then of the warnings; empty and repeated
  // fixes dropped.
  std::vector<std::string> fixes() const;
  std::vector<Check> warnings() const;  // the "warn" checks, in order
};

// Runs every rule. `image` may be default-constructed (unknown image).
Screening screen(const model::JobSpec& spec, const ImageMetadata& image, const ScreenOptions& options = {});

// The intent part of screen() alone.
Intent detect_intent(const model::JobSpec& spec, const ImageMetadata& image, const ScreenOptions& options = {});

// {rule, status, field, message, fix}.
nlohmann::json check_to_json(const Check& check);
// docs/api.md §2.1: {can_submit, blocked_checks: [rule ids], checks: [Check],
// warnings: [Check], fixes: [string]}.
nlohmann::json screening_to_json(const Screening& screening);
// A job's `screening` member (docs/api.md §3) as JSON text:
// {"checks": [Check], "warnings": [Check]}, written without building a tree
// (every submit writes one, and it is most of a job's bytes).
std::string job_screening_json(const Screening& screening);

// Every rule id, in table order (the order of Screening::checks).
const std::vector<std::string>& rule_ids();

}  // namespace jgrid::screen
