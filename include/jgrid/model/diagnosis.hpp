#pragma once
// Why a failed run failed, read from its exit and its output, and what to
// change (docs/rocm.md, "Failure diagnosis"). Produced by screen::diagnose,
// stored with the job, shown in the job object, the job.failed event, the
// callback body, the client commands and the dashboard.
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "jgrid/util/json_writer.hpp"

namespace jgrid::model {

// The output line the diagnosis rests on.
struct DiagnosisEvidence {
  std::string stream;     // "stdout" | "stderr"
  std::int64_t line = 0;  // its log sequence number (entry_id of GET /v1/jobs/{id}/logs)
  std::string text;
};

struct Diagnosis {
  std::string code;     // ROCM_USERSPACE_MISSING, NO_GPU_VISIBLE, GPU_ISA_UNSUPPORTED, GPU_DEVICE_PERMISSION,
                        // HIP_OUT_OF_MEMORY, CUDA_ON_AMD, OOM_KILLED, TIMEOUT
  std::string message;  // one line: why
  std::string fix;      // what to change
  std::optional<DiagnosisEvidence> evidence;  // none for OOM_KILLED / TIMEOUT read from the exit alone
};

// {code, message, fix, evidence: {stream, line, text} | null}
void write_diagnosis(util::JsonWriter& w, const Diagnosis& diagnosis);
nlohmann::json diagnosis_to_json(const Diagnosis& diagnosis);
// The stored form back; nullopt for null or a malformed document.
std::optional<Diagnosis> diagnosis_from_json(const nlohmann::json& doc);

}  // namespace jgrid::model
