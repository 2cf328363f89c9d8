#include "explain.hpp"

#include <algorithm>

namespace jgrid::route {
namespace {

std::string stack_name(const Intent& intent) {
  std::string vendor = intent.vendor == "amd" ? "AMD" : "NVIDIA";
  std::string runtime = intent.runtime == "cuda" ? "CUDA" : intent.runtime == "rocm" ? "ROCm" : "";
  return runtime.empty() ? vendor : vendor + "/" + runtime;
}

bool fleet_has_stack(const Intent& intent, const std::vector<model::Node>& nodes) {
  return std::any_of(nodes.begin(), nodes.end(), [&](const model::Node& node) {
    return (intent.vendor == "any" || node.gpu_vendor == intent.vendor) &&
           (intent.runtime.empty() || node.runtime == intent.runtime);
  });
}

std::string explain_unavailable(const RouteResult& result, const Intent& intent,
                                const std::vector<model::Node>& nodes) {
  if (nodes.empty()) return "no node in the fleet: add capacity";
  if (!fleet_has_stack(intent, nodes))
    return "no " + stack_name(intent) + " node in the fleet: declare a different route or add capacity";
  return "no node in the fleet can run this job: " + summarize_reasons(result.candidates);
}

}  // namespace

std::string summarize_reasons(const std::vector<Candidate>& candidates) {
  std::vector<std::pair<std::string, int>> groups;  // first-seen order, then stable sort by count
  for (const auto& candidate : candidates) {
    if (candidate.feasible || candidate.reasons.empty()) continue;
    const std::string& reason = candidate.reasons.front();
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& group) { return group.first == reason; });
    if (it == groups.end()) groups.emplace_back(reason, 1);
    else ++it->second;
  }
  std::stable_sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string text;
  for (const auto& [reason, count] : groups) {
    if (!text.empty()) text += "; ";
    text += std::to_string(count) + (count == 1 ? " node: " : " nodes: ") + reason;
  }
  return text;
}

std::string explain(const RouteResult& result, const Intent& intent, const std::vector<model::Node>& nodes) {
  switch (result.status) {
    case RouteResult::Status::available:
      return "placed on " + result.placement->node_name + " (" + result.placement->gpu_model +
             "): " + result.placement->reason;
    case RouteResult::Status::queued:
      return "no node has free capacity now: " + summarize_reasons(result.candidates);
    case RouteResult::Status::unavailable:
      break;
  }
  return explain_unavailable(result, intent, nodes);
}

}  // namespace jgrid::route
