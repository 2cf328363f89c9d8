#pragma once
// Failure diagnosis: reads a failed run's output lines as they are stored
// (OutputScan, cheap per line: a few substring searches, a regular
// expression only on a hit) and its exit, and says why it failed and what to
// change (model::Diagnosis). The patterns and the real error lines they were
// written from, each with its public source, are in
// tests/unit/screen/diagnose_cases.inc; docs/rocm.md lists the codes.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jgrid/model/diagnosis.hpp"

namespace jgrid::screen {

// Every diagnosis code, in the order a run's output is weighed: when lines of
// several codes appear, the first code of this list wins (a permission
// problem explains "no device"; a CUDA build explains a missing library).
const std::vector<std::string>& diagnosis_codes();
inline constexpr std::size_t k_diagnosis_code_count = 8;

// The first line of each code seen so far in one run's output.
class OutputScan {
 public:
  // One output line; `line` is its log sequence number.
  void line(std::string_view stream, std::int64_t line, std::string_view text);
  // The first matching line of `code`, if any.
  const std::optional<model::DiagnosisEvidence>& first(const std::string& code) const;
  // A gfx arch an error line named ("... for GPU arch : gfx1103"), or "".
  const std::string& arch_named() const { return m_arch_named; }

 private:
  // By index in diagnosis_codes(); a fixed array: one scan per live job costs no allocation until a line matches.
  std::array<std::optional<model::DiagnosisEvidence>, k_diagnosis_code_count> m_first;
  std::string m_arch_named;
};

// What the fix text may name about the node and the fleet.
struct FailureFacts {
  bool amd_node = true;            // the output patterns are read on AMD nodes only
  std::optional<int> exit_code;
  bool timed_out = false;
  std::int64_t timeout_s = 0;
  bool oom_killed = false;         // the engine reported an OOM kill
  std::string gpu_model;           // "MI300X"
  std::string gpu_arch;            // "gfx942"
  std::string runtime_version;     // "6.2"
  double vram_gb = 0;
  std::vector<std::string> roomier_gpus;  // "MI300X (192 GB)": fleet GPUs with more VRAM than this one
};

// The diagnosis of a failed run, or nullopt when neither its output nor its
// exit says more than the failure code already does.
std::optional<model::Diagnosis> diagnose(const OutputScan& scan, const FailureFacts& facts);

// The message and fix of `code` for `facts`, without evidence (what
// `jgrid-local doctor` prints for the same problem found before a run).
// `code` must be one of diagnosis_codes().
model::Diagnosis explain_code(const std::string& code, const FailureFacts& facts);

}  // namespace jgrid::screen
