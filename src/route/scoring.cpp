#include "scoring.hpp"

#include <algorithm>
#include <map>

namespace jgrid::route {
namespace {

using model::Node;

int gpus_left(const Demand& d, const Node& node) { return node.gpus_free - d.gpus; }

int class_rank(const std::string& gpu_class) {
  static const std::map<std::string, int, std::less<>> k_ranks = {
      {"datacenter", 2}, {"workstation", 1}, {"consumer", 0}};
  auto it = k_ranks.find(gpu_class);
  return it == k_ranks.end() ? 0 : it->second;
}

double price_of(const Node& node) { return std::max(node.price_per_gpu_hour, 0.0); }

bool family_preferred(const Demand& d, const Node& node) {
  return !d.preferred_family.empty() && equals_ignoring_case(d.preferred_family, node.gpu_family);
}

int preferences_met(const Demand& d, const Node& node) {
  return (!d.region_strict && region_preferred(d, node.region) ? 1 : 0) + (family_preferred(d, node) ? 1 : 0);
}

// Bin-packing first (fewer free GPUs left over is better), then preferences
// (at most 0.5), then price (at most 0.2).
double score_balanced(const Demand& d, const Node& node) {
  return 100.0 - gpus_left(d, node) + 0.25 * k_preference_bonus * preferences_met(d, node) +
         0.2 / (1.0 + price_of(node));
}

double score_cost(const Demand& d, const Node& node) {
  return 100.0 / (1.0 + price_of(node)) + k_preference_bonus * preferences_met(d, node);
}

// GPU class first, then relative speed (steps of 0.1 weigh 10), then fewer
// running jobs, then preferences and price.
double score_speed(const Demand& d, const Node& node) {
  return 1000.0 * class_rank(node.gpu_class) + 100.0 * std::clamp(node.speed, 0.0, 9.0) -
         5.0 * std::min(node.running_jobs, 9) + k_preference_bonus * preferences_met(d, node) +
         0.5 / (1.0 + price_of(node));
}

std::string price_text(const Node& node) { return format_usd(node.price_per_gpu_hour) + "/GPU-hour"; }

std::string mode_reason(const Demand& d, const Node& node) {
  if (d.mode == "cost") return "cost: " + price_text(node);
  if (d.mode == "speed")
    return "speed: " + node.gpu_class + " " + node.gpu_model + " at speed " + format_number(node.speed) + " with " +
           std::to_string(node.running_jobs) + " running jobs";
  return "balanced: leaves " + std::to_string(gpus_left(d, node)) + " of " + std::to_string(node.gpu_count) +
         " GPUs free at " + price_text(node);
}

}  // namespace

double score_node(const Demand& demand, const Node& node) {
  using Scorer = double (*)(const Demand&, const Node&);
  static const std::map<std::string, Scorer, std::less<>> k_scorers = {
      {"balanced", score_balanced}, {"cost", score_cost}, {"speed", score_speed}};
  auto it = k_scorers.find(demand.mode);
  return (it == k_scorers.end() ? score_balanced : it->second)(demand, node);
}

std::string placement_reason(const Demand& demand, const Node& node, int feasible) {
  std::string why = mode_reason(demand, node);
  if (!demand.region_strict && region_preferred(demand, node.region)) why += "; preferred region " + node.region;
  if (family_preferred(demand, node)) why += "; preferred family " + node.gpu_family;
  return why + "; best of " + std::to_string(feasible) + " feasible node" + (feasible == 1 ? "" : "s");
}

}  // namespace jgrid::route
