#pragma once
// Placement: (job spec, node snapshot) -> a placement or the reasons none
// fits. Pure: no store, no clock, no writes. The engine commits the result.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jgrid/model/job_spec.hpp"
#include "jgrid/model/node.hpp"
#include "jgrid/model/placement.hpp"

namespace jgrid::route {

struct Candidate {
  std::string node_id;
  std::string gpu_model;
  double score = 0;
  bool feasible = false;
  bool fits_when_empty = false;      // only "not now" reasons: it could run here once GPUs free up
  std::vector<std::string> reasons;  // why it was filtered (empty when feasible)
};

struct RouteResult {
  enum class Status { available, queued, unavailable };
  Status status = Status::unavailable;  // available: fits now; queued: fits the fleet later; unavailable: never
  std::optional<model::Placement> placement;
  std::vector<Candidate> candidates;
  std::string explanation;              // one sentence for humans
};

std::string_view to_string(RouteResult::Status status);

// The vendor a job may run on: "amd" or "nvidia" (stated, or implied by
// runtime/framework: rocm => amd, cuda => nvidia), else "any".
std::string intent_vendor(const model::JobSpec& spec);

// Chooses a node for `spec` among `nodes`. Vendor intent: amd/rocm hints
// consider only AMD+ROCm nodes, nvidia/cuda only NVIDIA+CUDA, none: any.
// Filters: node status (draining/offline: not now), vendor and runtime,
// GPU count (never), free GPUs (not now), VRAM per GPU, gpu_type and
// gpu_class (never). Scores by spec.optimize_for: balanced = bin-pack then
// price, cost = price, speed = GPU class then fewer running jobs. Equal
// scores are ordered by a hash of (seed, node id, spec name and image), so
// the same inputs always give the same node. One candidate per node, in
// `nodes` order. The placement's gpu_indices are left empty: the engine,
// which owns GPU accounting, chooses them.
RouteResult place(const model::JobSpec& spec, const std::vector<model::Node>& nodes, std::uint64_t seed);

}  // namespace jgrid::route
