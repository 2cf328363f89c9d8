#include "jgrid/screen/diagnose.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <sstream>
#include <vector>

#include "screen/diagnose_patterns.hpp"

namespace jgrid::screen {
namespace {

using model::Diagnosis;

// Output longer than this is not searched past it: error lines are short,
// and a 64 KiB line of progress bars costs nothing then.
constexpr std::size_t k_searched_prefix = 4096;

std::string or_text(const std::string& value, const std::string& fallback) { return value.empty() ? fallback : value; }

std::string gb(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

std::string node_gpu(const FailureFacts& f) {
  std::string text = or_text(f.gpu_model, "this node's GPU");
  if (!f.gpu_arch.empty()) text += " (" + f.gpu_arch + ")";
  return text;
}

std::string roomier(const FailureFacts& f) {
  if (f.roomier_gpus.empty()) return "no GPU in this fleet has more VRAM";
  std::string list;
  for (std::size_t i = 0; i < f.roomier_gpus.size(); ++i) list += (i ? ", " : "") + f.roomier_gpus[i];
  return "GPUs in this fleet with more VRAM: " + list + " (ask with constraints.min_vram_gb)";
}

// Why (message) and what to change (fix), for one code.
struct Explanation {
  std::string message, fix;
};
using Explain = std::function<Explanation(const FailureFacts&, const OutputScan&)>;

// What each code says.
const std::map<std::string, Explain>& explanations() {
  static const std::map<std::string, Explain> table = {
      {"GPU_DEVICE_PERMISSION",
       [](const FailureFacts&, const OutputScan&) {
         return Explanation{"the workload may not open the GPU device files (/dev/kfd, /dev/dri)",
                            "run it as a user in the render and video groups (usermod -aG render,video USER, then "
                            "log in again); with rootless podman add --group-add keep-groups, with docker --group-add "
                            "$(stat -c %g /dev/dri/renderD128); `jgrid-local doctor` checks this machine"};
       }},
      {"CUDA_ON_AMD",
       [](const FailureFacts& f, const OutputScan&) {
         return Explanation{"a CUDA-only part of the image ran on an AMD GPU (" + node_gpu(f) + ")",
                            "use the ROCm build of each framework in the image (PyTorch from "
                            "download.pytorch.org/whl/rocm" + or_text(f.runtime_version, "6.x") +
                                ", onnxruntime-rocm, the ROCm build of llama.cpp or vLLM) and drop nvidia-smi calls; "
                                "screening saw nothing CUDA-only in the image's name, labels or command"};
       }},
      {"ROCM_USERSPACE_MISSING",
       [](const FailureFacts& f, const OutputScan&) {
         return Explanation{"the image lacks the ROCm user-space stack (or the ROCm build of a framework) it needs",
                            "use an image built on ROCm " + or_text(f.runtime_version, "matching the node") +
                                " (the node's ROCm), e.g. a rocm/pytorch tag for that version, or install the missing "
                                "ROCm packages (HIP runtime, rocBLAS, MIOpen, rocm-smi-lib or amd-smi) in it; a "
                                "library that is in the image but not found needs LD_LIBRARY_PATH=/opt/rocm/lib"};
       }},
      {"GPU_ISA_UNSUPPORTED",
       [](const FailureFacts& f, const OutputScan& scan) {
         std::string target = or_text(or_text(f.gpu_arch, scan.arch_named()), "the node's gfx arch");
         return Explanation{"the image has no GPU code for " + node_gpu(f),
                            "rebuild the image for " + target + " (PYTORCH_ROCM_ARCH, AMDGPU_TARGETS or GPU_TARGETS=" +
                                target + ") or use an image whose build lists " + target +
                                "; HSA_OVERRIDE_GFX_VERSION only helps between ISAs that are the same in all but name "
                                "(10.3.0 for RDNA2 cards such as gfx1031/gfx1032 on a gfx1030 build), it cannot make a "
                                "build for another generation (gfx90a on gfx942, gfx11 on gfx9) run"};
       }},
      {"HIP_OUT_OF_MEMORY",
       [](const FailureFacts& f, const OutputScan&) {
         std::string vram = f.vram_gb > 0 ? " with " + gb(f.vram_gb) + " GB" : "";
         return Explanation{"the GPU ran out of memory (" + node_gpu(f) + vram + ")",
                            "use a smaller batch or sequence length (vLLM: lower --gpu-memory-utilization and "
                            "--max-model-len; llama.cpp: fewer --n-gpu-layers), set "
                            "PYTORCH_HIP_ALLOC_CONF=expandable_segments:True against fragmentation, or run on a GPU "
                            "with more VRAM: " + roomier(f)};
       }},
      {"NO_GPU_VISIBLE",
       [](const FailureFacts&, const OutputScan&) {
         return Explanation{"the framework saw no AMD GPU",
                            "ask for gpu_count >= 1 and do not set HIP_VISIBLE_DEVICES or ROCR_VISIBLE_DEVICES to an "
                            "empty list; the container needs /dev/kfd and /dev/dri (jgrid-local passes them when the "
                            "node has a GPU: `jgrid-local doctor` shows what this machine has)"};
       }},
      {"OOM_KILLED",
       [](const FailureFacts&, const OutputScan&) {
         return Explanation{"the workload was killed (exit 137, SIGKILL), most often by the out-of-memory killer for "
                            "host memory",
                            "lower the host memory it uses (fewer data-loader workers, a smaller batch, memory-mapped "
                            "data) or run it where more host memory is free"};
       }},
      {"TIMEOUT",
       [](const FailureFacts& f, const OutputScan&) {
         std::string limit = f.timeout_s > 0 ? " of " + std::to_string(f.timeout_s) + " s" : "";
         return Explanation{"the workload ran past its timeout" + limit,
                            "raise timeout_seconds, or let the job save checkpoints and resume from the last one"};
       }},
  };
  return table;
}

std::size_t code_index(const std::string& code) {
  const auto& codes = diagnosis_codes();
  return static_cast<std::size_t>(std::find(codes.begin(), codes.end(), code) - codes.begin());
}

Diagnosis explain(const std::string& code, const FailureFacts& facts, const OutputScan& scan) {
  Explanation text = explanations().at(code)(facts, scan);
  return Diagnosis{code, std::move(text.message), std::move(text.fix), std::nullopt};
}

}  // namespace

const std::vector<std::string>& diagnosis_codes() {
  static const std::vector<std::string> codes = {"GPU_DEVICE_PERMISSION", "CUDA_ON_AMD",       "ROCM_USERSPACE_MISSING",
                                                 "GPU_ISA_UNSUPPORTED",   "HIP_OUT_OF_MEMORY", "NO_GPU_VISIBLE",
                                                 "OOM_KILLED",            "TIMEOUT"};
  static_assert(k_diagnosis_code_count == 8, "k_diagnosis_code_count counts the codes above");
  return codes;
}

namespace {

// The patterns whose needle starts with each byte: one pass over a line
// finds every needle in it (most lines hold none, and cost that one pass).
struct NeedleIndex {
  std::array<std::vector<std::size_t>, 256> by_first_byte;
  std::vector<std::size_t> code_of;  // pattern -> index in diagnosis_codes()
  NeedleIndex() {
    const auto& patterns = diagnosis_patterns();
    for (std::size_t i = 0; i < patterns.size(); ++i) {
      by_first_byte[static_cast<unsigned char>(patterns[i].needle.front())].push_back(i);
      code_of.push_back(code_index(patterns[i].code));
    }
  }
};

const NeedleIndex& needle_index() {
  static const NeedleIndex index;
  return index;
}

}  // namespace

void OutputScan::line(std::string_view stream, std::int64_t line, std::string_view text) {
  std::string_view searched = text.substr(0, k_searched_prefix);
  const NeedleIndex& index = needle_index();
  const auto& patterns = diagnosis_patterns();
  std::vector<bool> found;  // patterns whose needle is in the line; allocated on the first hit only
  for (std::size_t at = 0; at < searched.size(); ++at) {
    for (std::size_t p : index.by_first_byte[static_cast<unsigned char>(searched[at])]) {
      if (m_first[index.code_of[p]] || !searched.substr(at).starts_with(patterns[p].needle)) continue;
      if (found.empty()) found.resize(patterns.size());
      found[p] = true;
    }
  }
  for (std::size_t p = 0; p < found.size(); ++p) {
    if (!found[p]) continue;
    const DiagnosisPattern& pattern = patterns[p];
    auto& first = m_first[index.code_of[p]];
    if (first) continue;
    std::match_results<std::string_view::const_iterator> match;
    if (!std::regex_search(searched.begin(), searched.end(), match, pattern.regex)) continue;
    first = model::DiagnosisEvidence{std::string(stream), line, std::string(text.substr(0, 1000))};
    if (pattern.needle == "TensileLibrary" && match.size() > 1 && match[1].matched) m_arch_named = match[1].str();
  }
}

const std::optional<model::DiagnosisEvidence>& OutputScan::first(const std::string& code) const {
  static const std::optional<model::DiagnosisEvidence> none;
  std::size_t index = code_index(code);
  return index < m_first.size() ? m_first[index] : none;
}

Diagnosis explain_code(const std::string& code, const FailureFacts& facts) { return explain(code, facts, OutputScan()); }

std::optional<Diagnosis> diagnose(const OutputScan& scan, const FailureFacts& facts) {
  if (facts.timed_out) return explain("TIMEOUT", facts, scan);
  if (facts.amd_node) {
    for (const auto& code : diagnosis_codes()) {
      const auto& evidence = scan.first(code);
      if (!evidence) continue;
      Diagnosis diagnosis = explain(code, facts, scan);
      diagnosis.evidence = evidence;
      return diagnosis;
    }
  }
  if (facts.oom_killed || (facts.exit_code && *facts.exit_code == 137)) return explain("OOM_KILLED", facts, scan);
  return std::nullopt;
}

}  // namespace jgrid::screen
