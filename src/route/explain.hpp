#pragma once
// The one sentence that says why a job was or was not placed.
#include <string>
#include <vector>

#include "filters.hpp"
#include "jgrid/model/node.hpp"
#include "jgrid/route/placer.hpp"

namespace jgrid::route {

// "no AMD/ROCm node in the fleet: declare a different route or add capacity",
// "no node has free capacity now: 3 nodes: vendor nvidia ≠ amd; 1 node: 0 of
// 8 GPUs free", or for a placed job "placed on <name> (<model>): <reason>".
std::string explain(const RouteResult& result, const Intent& intent, const std::vector<model::Node>& nodes);

// "3 nodes: vendor nvidia ≠ amd; 1 node: 0 of 8 GPUs free": infeasible
// candidates grouped by their first reason, most frequent first.
std::string summarize_reasons(const std::vector<Candidate>& candidates);

}  // namespace jgrid::route
