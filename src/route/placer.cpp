#include "jgrid/route/placer.hpp"

#include <algorithm>

#include "explain.hpp"
#include "filters.hpp"
#include "scoring.hpp"

namespace jgrid::route {
namespace {

Candidate make_candidate(const model::JobSpec& spec, const Intent& intent, const model::Node& node) {
  Verdict verdict = check_node(spec, intent, node);
  Candidate candidate{node.id, node.gpu_model};
  candidate.feasible = verdict.feasible();
  candidate.fits_when_empty = verdict.fits_when_empty();
  candidate.reasons = verdict.reasons();
  if (candidate.feasible) candidate.score = score_node(spec, node);
  return candidate;
}

// Index of the best feasible node: highest score, then lowest tie hash.
std::optional<std::size_t> pick(const model::JobSpec& spec, const std::vector<model::Node>& nodes,
                                const std::vector<Candidate>& candidates, std::uint64_t seed) {
  std::optional<std::size_t> best;
  std::uint64_t best_hash = 0;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (!candidates[i].feasible) continue;
    std::uint64_t hash = tie_hash(seed, nodes[i].id, spec);
    if (!best || candidates[i].score > candidates[*best].score ||
        (candidates[i].score == candidates[*best].score && hash < best_hash)) {
      best = i;
      best_hash = hash;
    }
  }
  return best;
}

model::Placement make_placement(const model::JobSpec& spec, const model::Node& node, double score, int feasible) {
  model::Placement placement;
  placement.node_id = node.id;
  placement.node_name = node.name;
  placement.provider = node.source == "local" ? "local" : "simulated";
  placement.region = node.region;
  placement.gpu_vendor = node.gpu_vendor;
  placement.gpu_model = node.gpu_model;
  placement.gpu_family = node.gpu_family;
  placement.runtime = node.runtime;
  placement.runtime_version = node.runtime_version;
  placement.gpu_count = std::max(spec.gpu_count, 1);
  placement.price_per_gpu_hour = node.price_per_gpu_hour;
  placement.reason = placement_reason(spec, node, feasible);
  placement.score = score;
  placement.candidates = feasible;
  return placement;
}

RouteResult::Status status_of(const std::vector<Candidate>& candidates) {
  auto has = [&](auto predicate) { return std::any_of(candidates.begin(), candidates.end(), predicate); };
  if (has([](const Candidate& c) { return c.feasible; })) return RouteResult::Status::available;
  if (has([](const Candidate& c) { return c.fits_when_empty; })) return RouteResult::Status::queued;
  return RouteResult::Status::unavailable;
}

}  // namespace

std::string_view to_string(RouteResult::Status status) {
  switch (status) {
    case RouteResult::Status::available: return "available";
    case RouteResult::Status::queued: return "queued";
    case RouteResult::Status::unavailable: break;
  }
  return "unavailable";
}

std::string intent_vendor(const model::JobSpec& spec) { return intent_of(spec).vendor; }

RouteResult place(const model::JobSpec& spec, const std::vector<model::Node>& nodes, std::uint64_t seed) {
  Intent intent = intent_of(spec);
  RouteResult result;
  result.candidates.reserve(nodes.size());
  for (const auto& node : nodes) result.candidates.push_back(make_candidate(spec, intent, node));
  result.status = status_of(result.candidates);
  if (auto best = pick(spec, nodes, result.candidates, seed)) {
    int feasible = static_cast<int>(std::count_if(result.candidates.begin(), result.candidates.end(),
                                                  [](const Candidate& c) { return c.feasible; }));
    result.placement = make_placement(spec, nodes[*best], result.candidates[*best].score, feasible);
  }
  result.explanation = explain(result, intent, nodes);
  return result;
}

}  // namespace jgrid::route
