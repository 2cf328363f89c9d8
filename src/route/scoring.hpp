#pragma once
// Scores of feasible nodes (higher is better), one scorer per optimize_for
// mode, and the sentence that says why the winner won.
#include <string>

#include "filters.hpp"
#include "jgrid/model/node.hpp"

namespace jgrid::route {

// A soft preference met (preferred region, preferred family) adds this in
// cost and speed mode, and a quarter of it in balanced mode (below one GPU
// of bin-packing, above any price difference).
inline constexpr double k_preference_bonus = 1.0;

// The score of `node` for `demand` under demand.mode. Depends only on the
// node's description, gpus_free and running_jobs.
double score_node(const Demand& demand, const model::Node& node);

// Why the winner won, for humans: "balanced: leaves 4 of 8 GPUs free at
// $2.10/GPU-hour; preferred region us-east; best of 3 feasible nodes".
std::string placement_reason(const Demand& demand, const model::Node& node, int feasible);

}  // namespace jgrid::route
