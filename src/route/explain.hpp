#pragma once
// The sentences that say why a job was or was not placed, computed from the
// index's classes and buckets (never a scan of every node).
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "filters.hpp"
#include "jgrid/route/fleet_index.hpp"
#include "jgrid/route/placer.hpp"

namespace jgrid::route {

// Node counts by reason: "3 nodes: vendor nvidia ≠ amd; 1 node: 0 of 8 GPUs
// free", most frequent first, first seen first among equal counts.
class ReasonCounts {
 public:
  // `reason` is copied (or moved) only the first time it is seen.
  void add(std::string_view reason, std::size_t nodes);
  void add(std::string&& reason, std::size_t nodes);
  void add(const char* reason, std::size_t nodes) { add(std::string_view(reason), nodes); }
  bool empty() const { return m_counts.empty(); }
  std::string text() const;

 private:
  std::size_t* find(std::string_view reason);  // the reason's count, or null
  std::vector<std::pair<std::string, std::size_t>> m_counts;
};

// The nodes of `fleet` that cannot take the job now, counted by their first
// reason (the first of Candidate::reasons).
std::string summarize_fleet(const Demand& demand, const FleetIndex& fleet, const std::set<std::uint32_t>* held);

// result.explanation for a result whose status, placement and filtered are
// set: "placed on <name> (<model>): <reason>", "no node has free capacity
// now: …", "no AMD/ROCm node in the fleet: declare a different route or add
// capacity", the CUDA-only message, or "no node in the fleet can run this
// job: …".
std::string explain(const RouteResult& result, const Demand& demand, const FleetIndex& fleet);

}  // namespace jgrid::route
