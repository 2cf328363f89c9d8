#include "filters.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>

#include "jgrid/util/strings.hpp"

namespace jgrid::route {
namespace {

using model::JobSpec;
using model::Node;

struct Check {
  const JobSpec& spec;
  const Intent& intent;
  const Node& node;
  Verdict& verdict;
};

void check_status(Check& c) {
  if (c.node.status == model::NodeStatus::draining || c.node.status == model::NodeStatus::offline)
    c.verdict.not_now.push_back("node is " + std::string(model::to_string(c.node.status)));
}

void check_vendor(Check& c) {
  if (c.intent.vendor != "any" && c.node.gpu_vendor != c.intent.vendor) {
    c.verdict.never.push_back("vendor " + c.node.gpu_vendor + " ≠ " + c.intent.vendor);
    return;
  }
  // A vendor mismatch already says it all; the runtime only matters within a vendor.
  if (!c.intent.runtime.empty() && c.node.runtime != c.intent.runtime)
    c.verdict.never.push_back("runtime " + c.node.runtime + " ≠ " + c.intent.runtime);
}

void check_gpus(Check& c) {
  int wanted = std::max(c.spec.gpu_count, 1);
  if (wanted > c.node.gpu_count) {
    c.verdict.never.push_back("needs " + std::to_string(wanted) + " GPUs, node has " +
                              std::to_string(c.node.gpu_count));
  } else if (c.node.gpus_free < wanted) {
    c.verdict.not_now.push_back(std::to_string(std::max(c.node.gpus_free, 0)) + " of " +
                                std::to_string(c.node.gpu_count) + " GPUs free");
  }
}

void check_vram(Check& c) {
  double needed = c.spec.min_vram_gb.value_or(0);
  if (c.spec.model_size_gb) needed = std::max(needed, *c.spec.model_size_gb * 1.2 / std::max(c.spec.gpu_count, 1));
  if (needed > c.node.vram_gb)
    c.verdict.never.push_back("needs " + format_number(needed) + " GB VRAM per GPU, node has " +
                              format_number(c.node.vram_gb) + " GB");
}

void check_gpu_type(Check& c) {
  if (!c.spec.gpu_type.empty() && util::to_lower(c.spec.gpu_type) != util::to_lower(c.node.gpu_model))
    c.verdict.never.push_back("gpu_type " + c.spec.gpu_type + " ≠ " + c.node.gpu_model);
}

void check_gpu_class(Check& c) {
  if (!c.spec.gpu_class.empty() && util::to_lower(c.spec.gpu_class) != util::to_lower(c.node.gpu_class))
    c.verdict.never.push_back("gpu_class " + c.spec.gpu_class + " ≠ " + c.node.gpu_class);
}

// Cheap checks first; the order is also the order reasons are listed in.
const std::vector<std::function<void(Check&)>> k_checks = {
    check_status, check_vendor, check_gpus, check_vram, check_gpu_type, check_gpu_class,
};

}  // namespace

Intent intent_of(const JobSpec& spec) {
  Intent intent{model::effective_vendor(spec), ""};
  if (intent.vendor != "amd" && intent.vendor != "nvidia") {
    intent.vendor = spec.runtime == "rocm" ? "amd" : spec.runtime == "cuda" ? "nvidia" : "any";
  }
  if (spec.runtime == "rocm" || spec.runtime == "cuda") {
    intent.runtime = spec.runtime;
  } else if (intent.vendor != "any") {
    intent.runtime = intent.vendor == "amd" ? "rocm" : "cuda";
  }
  return intent;
}

std::vector<std::string> Verdict::reasons() const {
  std::vector<std::string> all = never;
  all.insert(all.end(), not_now.begin(), not_now.end());
  return all;
}

Verdict check_node(const JobSpec& spec, const Intent& intent, const Node& node) {
  Verdict verdict;
  Check check{spec, intent, node, verdict};
  for (const auto& run : k_checks) run(check);
  return verdict;
}

std::string format_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

}  // namespace jgrid::route
