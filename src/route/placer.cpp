#include "jgrid/route/placer.hpp"

#include <algorithm>
#include <tuple>
#include <utility>

#include "explain.hpp"
#include "filters.hpp"
#include "scoring.hpp"

namespace jgrid::route {
namespace {

// The best node seen so far: highest score, then lowest tie hash, then slot.
struct Best {
  std::optional<std::size_t> slot;
  double score = 0;
  std::uint64_t hash = 0;

  void offer(std::size_t candidate, double candidate_score, std::uint64_t candidate_hash) {
    if (slot && (candidate_score < score ||
                 (candidate_score == score && std::tie(candidate_hash, candidate) > std::tie(hash, *slot))))
      return;
    slot = candidate;
    score = candidate_score;
    hash = candidate_hash;
  }
};

// Nodes of a bucket within the job's max price: all of them unless the
// limit falls inside the class's prices (the bucket is in price order).
int within_price(const Demand& d, const NodeClass& c, const std::set<BucketEntry>& bucket) {
  if (fits_price(d, c.max_price)) return static_cast<int>(bucket.size());
  int count = 0;
  for (auto it = bucket.begin(); it != bucket.end() && fits_price(d, it->price); ++it) ++count;
  return count;
}

// Nodes of a bucket differ only in price and id (same description, free GPUs
// and running jobs), every score falls as the price rises, and the bucket's
// first node is its cheapest with the lowest tie hash: one score per
// non-empty bucket finds the class's best node.
void consider_class(const Demand& d, const FleetIndex& fleet, const NodeClass& c, Best& best, int& feasible) {
  if (d.gpus > c.gpu_count) return;
  c.each_occupied(c.bucket_index(d.gpus, 0), [&](std::size_t index) {
    const auto& bucket = c.buckets[index];
    const BucketEntry& first = *bucket.begin();
    if (!fits_price(d, first.price)) return;
    feasible += within_price(d, c, bucket);
    best.offer(first.slot, score_node(d, fleet.node(first.slot)), first.hash);
  });
}

// A job asking for node labels: the first node of each bucket that carries
// them within the max price wins that bucket (buckets are in price, then
// tie-hash order); every node is looked at.
bool consider_labelled_class(const Demand& d, const FleetIndex& fleet, const NodeClass& c, bool held, Best& best,
                             int& feasible) {
  auto labelled = [&](std::size_t slot) {
    const model::Node& node = fleet.node(slot);
    return fits_labels(d, node) && fits_price(d, node.price_per_gpu_hour);
  };
  if (std::none_of(c.slots.begin(), c.slots.end(), labelled)) return false;
  if (held || d.gpus > c.gpu_count) return true;
  c.each_occupied(c.bucket_index(d.gpus, 0), [&](std::size_t index) {
    bool first = true;
    for (const BucketEntry& entry : c.buckets[index]) {
      if (!labelled(entry.slot)) continue;
      ++feasible;
      if (std::exchange(first, false)) best.offer(entry.slot, score_node(d, fleet.node(entry.slot)), entry.hash);
    }
  });
  return true;
}

struct Scan {
  Best best;
  int feasible = 0;                    // nodes that could take the job now
  std::vector<std::uint32_t> fitting;  // classes it fits when their nodes are empty
};

// Only the classes of the intended vendor; the static filters once per class.
Scan scan_classes(const Demand& d, const RouteRequest& request, const FleetIndex& fleet) {
  Scan scan;
  for (std::uint32_t id : fleet.classes_of_vendor(request.intent.vendor)) {
    const NodeClass& node_class = fleet.classes()[id];
    if (!fits_class(d, fleet.node(node_class.prototype))) continue;
    bool held = request.held && request.held->count(id);
    if (!d.node_labels.empty()) {
      if (consider_labelled_class(d, fleet, node_class, held, scan.best, scan.feasible)) scan.fitting.push_back(id);
      continue;
    }
    scan.fitting.push_back(id);
    if (!held) consider_class(d, fleet, node_class, scan.best, scan.feasible);
  }
  return scan;
}

model::Placement make_placement(const Demand& d, const model::Node& node, double score, int feasible) {
  model::Placement placement;
  placement.node_id = node.id;
  placement.node_name = node.name;
  placement.provider = node.source == "local" || node.source == "slurm" ? node.source : "simulated";
  placement.region = node.region;
  placement.gpu_vendor = node.gpu_vendor;
  placement.gpu_model = node.gpu_model;
  placement.gpu_family = node.gpu_family;
  placement.runtime = node.runtime;
  placement.runtime_version = node.runtime_version;
  placement.gpu_count = d.gpus;
  placement.price_per_gpu_hour = node.price_per_gpu_hour;
  placement.reason = placement_reason(d, node, feasible);
  placement.score = score;
  placement.candidates = feasible;
  return placement;
}

// The cheapest node of the classes the job fits once GPUs free up (first one among equal prices).
std::optional<model::Node> cheapest_fitting(const FleetIndex& fleet, const std::vector<std::uint32_t>& fitting) {
  const model::Node* cheapest = nullptr;
  for (std::uint32_t id : fitting) {
    const model::Node& node = fleet.node(fleet.classes()[id].prototype);
    if (!cheapest || node.price_per_gpu_hour < cheapest->price_per_gpu_hour) cheapest = &node;
  }
  if (!cheapest) return std::nullopt;
  return *cheapest;
}

RouteResult::Status status_of(const RouteResult& result) {
  if (result.placement) return RouteResult::Status::available;
  return result.fitting_classes.empty() ? RouteResult::Status::unavailable : RouteResult::Status::queued;
}

std::string optional_text(const std::optional<double>& value) { return value ? format_number(*value) : ""; }

}  // namespace

std::string_view to_string(RouteResult::Status status) {
  switch (status) {
    case RouteResult::Status::available:
      return "available";
    case RouteResult::Status::queued:
      return "queued";
    case RouteResult::Status::unavailable:
      break;
  }
  return "unavailable";
}

RouteResult place(const RouteRequest& request, const FleetIndex& fleet) {
  Demand d = make_demand(request.spec, request.intent);
  Scan scan = scan_classes(d, request, fleet);
  RouteResult result;
  result.fitting_classes = std::move(scan.fitting);
  if (scan.best.slot) {
    result.placement = make_placement(d, fleet.node(*scan.best.slot), scan.best.score, scan.feasible);
    if (request.describe_likely_node) result.likely_node = fleet.node(*scan.best.slot);
  } else if (request.describe_likely_node) {
    result.likely_node = cheapest_fitting(fleet, result.fitting_classes);
  }
  result.status = status_of(result);
  if (result.placement && !request.explain_placement) return result;
  result.filtered = summarize_fleet(d, fleet, request.held);
  result.explanation = explain(result, d, fleet);
  return result;
}

std::string route_key(const model::JobSpec& spec, const screen::Intent& intent) {
  // The CUDA-only and unknown-stack explanations quote the intent's first reason.
  bool quoted = intent.unknown_cuda_heavy || intent.unknown_stack;
  std::string cuda_heavy = quoted && !intent.reasons.empty() ? intent.reasons.front() : "";
  std::string key = intent.vendor + '|' + intent.runtime + '|' + cuda_heavy + '|' + std::to_string(spec.gpu_count) +
                    '|' + optional_text(spec.min_vram_gb) + '|' + optional_text(spec.model_size_gb) + '|' +
                    spec.gpu_type + '|' + spec.gpu_class + '|' + spec.optimize_for + '|';
  return key + (spec.constraints.is_object() ? spec.constraints.dump() : "");
}

}  // namespace jgrid::route
