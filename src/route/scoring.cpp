#include "scoring.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>

namespace jgrid::route {
namespace {

using model::JobSpec;
using model::Node;

int gpus_left(const JobSpec& spec, const Node& node) { return node.gpus_free - std::max(spec.gpu_count, 1); }

// A price term in (0, 0.5]: never outweighs one GPU of bin-packing.
double price_term(const Node& node) { return 0.5 / (1.0 + std::max(node.price_per_gpu_hour, 0.0)); }

int class_rank(const std::string& gpu_class) {
  static const std::map<std::string, int> k_ranks = {{"datacenter", 2}, {"workstation", 1}, {"consumer", 0}};
  auto it = k_ranks.find(gpu_class);
  return it == k_ranks.end() ? 0 : it->second;
}

// Bin-packing first (fewer free GPUs left over is better), then price.
double score_balanced(const JobSpec& spec, const Node& node) { return 100.0 - gpus_left(spec, node) + price_term(node); }

double score_cost(const JobSpec&, const Node& node) { return 100.0 / (1.0 + std::max(node.price_per_gpu_hour, 0.0)); }

// GPU class first, then fewer running jobs, then the node's relative speed.
double score_speed(const JobSpec&, const Node& node) {
  return 1000.0 * class_rank(node.gpu_class) - 10.0 * node.running_jobs + std::min(node.speed, 9.0);
}

using Scorer = std::function<double(const JobSpec&, const Node&)>;
const std::map<std::string, Scorer> k_scorers = {
    {"balanced", score_balanced}, {"cost", score_cost}, {"speed", score_speed}};

std::string price_text(const Node& node) {
  char text[48];
  std::snprintf(text, sizeof text, "$%.2f/GPU-hour", node.price_per_gpu_hour);
  return text;
}

std::string mode_of(const JobSpec& spec) { return k_scorers.count(spec.optimize_for) ? spec.optimize_for : "balanced"; }

}  // namespace

double score_node(const JobSpec& spec, const Node& node) { return k_scorers.at(mode_of(spec))(spec, node); }

std::string placement_reason(const JobSpec& spec, const Node& node, int feasible) {
  std::string mode = mode_of(spec);
  std::string why;
  if (mode == "cost") {
    why = "cost: " + price_text(node);
  } else if (mode == "speed") {
    why = "speed: " + node.gpu_class + " " + node.gpu_model + " with " + std::to_string(node.running_jobs) +
          " running jobs";
  } else {
    why = "balanced: leaves " + std::to_string(gpus_left(spec, node)) + " of " + std::to_string(node.gpu_count) +
          " GPUs free at " + price_text(node);
  }
  return why + "; best of " + std::to_string(feasible) + " feasible node" + (feasible == 1 ? "" : "s");
}

std::uint64_t tie_hash(std::uint64_t seed, const std::string& node_id, const JobSpec& spec) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  auto mix = [&hash](unsigned char byte) { hash = (hash ^ byte) * 0x100000001b3ULL; };
  for (int i = 0; i < 8; ++i) mix(static_cast<unsigned char>(seed >> (8 * i)));
  for (const std::string* part : {&node_id, &spec.name, &spec.image}) {
    for (char c : *part) mix(static_cast<unsigned char>(c));
    mix(0);
  }
  return hash;
}

}  // namespace jgrid::route
