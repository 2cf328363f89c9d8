#pragma once
// Scores of feasible nodes (higher is better) and the seeded tie-break.
#include <cstdint>
#include <string>

#include "jgrid/model/job_spec.hpp"
#include "jgrid/model/node.hpp"

namespace jgrid::route {

// The score of `node` for `spec` under spec.optimize_for (unknown modes
// score as balanced).
double score_node(const model::JobSpec& spec, const model::Node& node);

// Why the winner won, for humans: "balanced: leaves 4 of 8 GPUs free at
// $2.10/GPU-hour; best of 3 feasible nodes".
std::string placement_reason(const model::JobSpec& spec, const model::Node& node, int feasible);

// FNV-1a of (seed, node id, spec name and image): orders equal scores the
// same way on every run.
std::uint64_t tie_hash(std::uint64_t seed, const std::string& node_id, const model::JobSpec& spec);

}  // namespace jgrid::route
