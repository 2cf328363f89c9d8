// The slow path of the router: every node with its reasons, for estimates
// and the dashboard. The decision itself comes from place(), so the report
// can never disagree with the placement.
#include <map>
#include <utility>

#include "filters.hpp"
#include "jgrid/route/placer.hpp"
#include "scoring.hpp"

namespace jgrid::route {
namespace {

Candidate make_candidate(const Demand& d, const model::Node& node, const std::vector<std::string>& never, bool held) {
  Candidate candidate{node.id, node.gpu_model};
  candidate.reasons = never;
  for (auto& reason : state_reasons(d, node, held)) candidate.reasons.push_back(std::move(reason));
  candidate.fits_when_empty = never.empty();
  candidate.feasible = candidate.reasons.empty();
  if (candidate.feasible) candidate.score = score_node(d, node);
  return candidate;
}

}  // namespace

RouteResult report(const RouteRequest& request, const FleetIndex& fleet) {
  RouteResult result = place(request, fleet);
  Demand d = make_demand(request.spec, request.intent);
  // Class reasons, once per class and price (prices vary inside a class).
  std::map<std::pair<std::uint32_t, double>, std::vector<std::string>> never_by_class;
  result.candidates.reserve(fleet.size());
  for (std::size_t slot = 0; slot < fleet.size(); ++slot) {
    const model::Node& node = fleet.node(slot);
    std::uint32_t id = fleet.class_of(slot);
    auto key = std::make_pair(id, node.price_per_gpu_hour);
    auto it = never_by_class.find(key);
    if (it == never_by_class.end()) it = never_by_class.emplace(key, class_reasons(d, node)).first;
    bool held = request.held && request.held->count(id) > 0;
    if (fits_labels(d, node)) {
      result.candidates.push_back(make_candidate(d, node, it->second, held));
    } else {
      auto never = it->second;
      never.push_back(label_reason(d, node));
      result.candidates.push_back(make_candidate(d, node, never, held));
    }
  }
  return result;
}

RouteResult report(const model::JobSpec& spec, const screen::Intent& intent, const std::vector<model::Node>& nodes,
                   std::uint64_t seed) {
  FleetIndex fleet(nodes, seed);
  return report(RouteRequest{spec, intent}, fleet);
}

}  // namespace jgrid::route
