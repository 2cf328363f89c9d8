#pragma once
// Placement (docs/rocm.md §3): (job spec, accelerator intent, fleet index) -> a
// placement or the reasons none fits. Pure: no store, no clock, no writes;
// the engine commits the result. Thread-safe for concurrent calls on an
// index nobody is changing.
//
// 1. Filter, cheap first. Not now (the node could take the job later):
//    node draining or offline. Never (not even on an empty node), in order:
//    vendor (intent "amd": AMD nodes only; "nvidia", which includes
//    unknown_cuda_heavy: NVIDIA only; no intent: any vendor, the screener
//    having read the image already), runtime (rocm/cuda as the intent says),
//    GPU count, VRAM per GPU (>= min_vram_gb and >= model_size_gb × 1.2 /
//    gpu_count), gpu_type (model), gpu_class, constraints.avoid_gpu_families,
//    region (constraints.region_mode "strict": the node's region must be one
//    of constraints.region_preference), price ceiling, node labels. Then not
//    now again: free GPUs >= gpu_count, and the node's class not held for an
//    earlier waiting job.
//    The price ceiling constraints.max_price_per_hour is the job's hourly
//    rate: price_per_gpu_hour × gpu_count, like estimated_hourly_rate_usd.
//    Node labels: constraints.node_labels {key: value} must all be on the node.
// 2. Score by optimize_for: "cost" = lower price; "speed" = GPU class
//    (datacenter > workstation > consumer), then the node's relative speed,
//    then fewer running jobs; "balanced" (default) = bin-pack (fewest GPUs
//    left free), then price. Soft preferences add a bonus each: the node's
//    region in constraints.region_preference (region_mode "prefer", the
//    default) and its family equal to constraints.preferred_gpu_family; the
//    bonus decides between nodes the mode's first criterion rates (nearly)
//    equal, never against a clearly better one.
// 3. Ties: the lowest seeded hash of the node id (FleetIndex::tie_hash), so
//    the same seed, fleet and submissions give the same placements.
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "jgrid/model/job_spec.hpp"
#include "jgrid/model/node.hpp"
#include "jgrid/model/placement.hpp"
#include "jgrid/route/fleet_index.hpp"
#include "jgrid/screen/screen.hpp"

namespace jgrid::route {

struct Candidate {
  std::string node_id;
  std::string gpu_model;
  double score = 0;
  bool feasible = false;
  bool fits_when_empty = false;      // only "not now" reasons: it could run here once GPUs free up
  std::vector<std::string> reasons;  // why it was filtered (empty when feasible): never first, then not now
};

struct RouteResult {
  enum class Status { available, queued, unavailable };
  Status status = Status::unavailable;  // available: fits now; queued: fits the fleet later; unavailable: never
  std::optional<model::Placement> placement;
  std::vector<Candidate> candidates;  // report() only: one per node, in fleet order
  std::string explanation;            // one sentence for humans
  // Nodes that cannot take the job now, counted by their first reason:
  // "3 nodes: vendor nvidia ≠ amd; 1 node: 0 of 8 GPUs free" ("" when none).
  std::string filtered;
  // The node a cost estimate talks about: the placement's, else the cheapest
  // node the job could use once GPUs free up.
  std::optional<model::Node> likely_node;
  // Node classes (FleetIndex) the job fits when their nodes are empty, ascending.
  std::vector<std::uint32_t> fitting_classes;
};

struct RouteRequest {
  const model::JobSpec& spec;
  const screen::Intent& intent;
  // Node classes held for earlier waiting jobs: not now for this one. May be null.
  const std::set<std::uint32_t>* held = nullptr;
  // false: a placed result leaves `filtered` and `explanation` empty (a
  // caller that only needs the status and placement skips the summary).
  bool explain_placement = true;
  // false: `likely_node` stays empty (a scheduling pass prices nothing).
  bool describe_likely_node = true;
};

std::string_view to_string(RouteResult::Status status);

// The fast path: the best node (or why none), without per-node candidates.
// Cost grows with node classes and buckets, not nodes (see FleetIndex).
// The placement's gpu_indices are left empty: the engine, which owns GPU
// accounting, chooses them. placement->candidates counts the feasible nodes.
RouteResult place(const RouteRequest& request, const FleetIndex& fleet);

// place() plus one Candidate per node with its reasons and score: for
// estimates and the dashboard. O(nodes).
RouteResult report(const RouteRequest& request, const FleetIndex& fleet);

// report() over a plain node list (builds an index; for tests and tools).
RouteResult report(const model::JobSpec& spec, const screen::Intent& intent, const std::vector<model::Node>& nodes,
                   std::uint64_t seed);

// Everything of (spec, intent) that routing reads: two jobs with equal keys
// get the same decision from the same index, held classes and seed.
std::string route_key(const model::JobSpec& spec, const screen::Intent& intent);

}  // namespace jgrid::route
