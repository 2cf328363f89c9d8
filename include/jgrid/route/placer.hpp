#pragma once
// Placement: (job spec, node snapshot) -> a placement or the reasons none
// fits. Pure: no store, no clock, no writes. The engine commits the result.
#include <string>
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

// Chooses a node for `spec` among `nodes`. Vendor intent: amd/rocm hints
// consider only AMD+ROCm nodes, nvidia/cuda only NVIDIA+CUDA, none: any.
RouteResult place(const model::JobSpec& spec, const std::vector<model::Node>& nodes, std::uint64_t seed);

}  // namespace jgrid::route
