#pragma once
// Readers of the structured groups of docs/api.md §2.2 (constraints and routing
// hints, priorities, input files, expected artifacts, callbacks). Each reads
// `body`, fills its part of `spec` and names the field it refuses.
#include "jgrid/model/job_spec.hpp"

namespace jgrid::model {

// `constraints` as sent, validated; must run before read_routing_hints.
Status read_constraints(const Json& body, JobSpec& spec, SpecMode mode);
// gpu_type, gpu_class, min_vram_gb, model_size_gb [model_size], disk_gb at the
// top level or inside constraints; top-level values are folded into constraints.
Status read_routing_hints(const Json& body, JobSpec& spec, SpecMode mode);
// optimize_for [routing_mode], priority, latency_priority, cost_priority.
Status read_priorities(const Json& body, JobSpec& spec, SpecMode mode);
// input_files, script_files and the legacy script_file.
Status read_input_files(const Json& body, JobSpec& spec, SpecMode mode);
// expected_artifacts, normalised, each under k_artifacts_root.
Status read_artifacts(const Json& body, JobSpec& spec, SpecMode mode);
// callback{url,auth_token,metadata}, callback_url/_auth_token/_metadata, webhook_url.
Status read_callback(const Json& body, JobSpec& spec, SpecMode mode);

// "/workspace/artifacts/a/b" from a path with "//" or "/./" in it; nullopt
// when it has "..", is relative or is not strictly under k_artifacts_root.
std::optional<std::string> normalise_artifact_path(const std::string& text);

}  // namespace jgrid::model
