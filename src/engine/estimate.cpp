#include "estimate.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "lifecycle.hpp"
#include "screening.hpp"

namespace jgrid::engine {
namespace {

using model::Json;
using route::RouteResult;

double base_minutes(model::WorkloadType type) {
  static const std::map<model::WorkloadType, double> k_minutes = {
      {model::WorkloadType::inference, 10}, {model::WorkloadType::batch, 20},
      {model::WorkloadType::fine_tuning, 60}, {model::WorkloadType::training, 120}};
  return k_minutes.at(type);
}

double round_cents(double usd) { return std::round(usd * 100.0) / 100.0; }

Json classification(const model::JobSpec& spec, const screen::Intent& intent) {
  Json out = {{"workload_type", model::to_string(spec.workload_type)},
              {"requires_gpu", spec.requires_gpu && spec.gpu_count > 0},
              {"gpu_vendor", intent.vendor.empty() ? "any" : intent.vendor},
              {"runtime", intent.runtime.empty() ? "auto" : intent.runtime},
              {"acceleration_requirement", "gpu"},
              {"confidence", intent.confidence},
              {"unknown_stack", intent.unknown_stack},
              {"image_source", intent.image_source},
              {"reasons", intent.reasons}};
  if (!spec.framework.empty()) out["framework"] = spec.framework;
  return out;
}

Json warning_texts(const screen::Screening& screening) {
  Json out = Json::array();
  for (const auto& check : screening.warnings()) out.push_back(check.rule + ": " + check.message);
  return out;
}

Json routing(const RouteResult& route) {
  Json candidates = Json::array();
  for (const auto& c : route.candidates)
    candidates.push_back({{"node_id", c.node_id}, {"gpu_model", c.gpu_model}, {"score", c.score},
                          {"feasible", c.feasible}, {"reasons", c.reasons}});
  Json out = {{"route_status", route::to_string(route.status)}, {"selected_route_source", "live"},
              {"selection_reason", route.placement ? route.placement->reason : route.explanation},
              {"candidates", candidates}};
  if (route.placement) {
    out["selected_accelerator"] = route.placement->gpu_model;
    out["selected_node_id"] = route.placement->node_id;
  }
  return out;
}

int feasible_count(const RouteResult& route) {
  return static_cast<int>(std::count_if(route.candidates.begin(), route.candidates.end(),
                                         [](const route::Candidate& c) { return c.feasible; }));
}

Json capacity(const RouteResult& route) {
  return {{"live_capacity_available", route.status == RouteResult::Status::available},
          {"live_candidate_count", feasible_count(route)}, {"managed_capacity_available", nullptr},
          {"managed_profile_count", 0}, {"estimate_source", "simulated_fleet"}};
}

Json capacity_status(const RouteResult& route) {
  std::string availability = route.status == RouteResult::Status::unavailable ? "unavailable"
                             : route.status == RouteResult::Status::queued || feasible_count(route) < 2 ? "limited"
                                                                                                     : "available";
  return {{"availability", availability},
          {"immediate_capacity_confirmed", route.status == RouteResult::Status::available}};
}

void add_costs(Json& out, const model::JobSpec& spec, double price, model::Framing framing) {
  RuntimeEstimate runtime = estimate_runtime(spec);
  double expected = round_cents(cost_for(price, spec.gpu_count, runtime.expected_minutes));
  double low = round_cents(cost_for(price, spec.gpu_count, runtime.min_minutes));
  double high = round_cents(cost_for(price, spec.gpu_count, runtime.max_minutes));
  out["estimated_cost_usd"] = framing == model::Framing::envelope ? Json{{"min", low}, {"max", high}} : Json(expected);
  out["estimated_cost_min_usd"] = low;
  out["estimated_cost_max_usd"] = high;
  out["estimated_hourly_rate_usd"] = round_cents(price * std::max(spec.gpu_count, 1));
  out["estimated_runtime_min_minutes"] = static_cast<int>(std::ceil(runtime.min_minutes));
  out["estimated_runtime_max_minutes"] = static_cast<int>(std::ceil(runtime.max_minutes));
  out["estimated_queue_wait_seconds"] = 0;
}

void add_likely_gpu(Json& out, const model::Node* node) {
  if (!node) return;
  out["likely_gpu_type"] = node->gpu_model;
  if (!node->gpu_family.empty()) out["likely_gpu_family"] = node->gpu_family;
  if (!node->gpu_class.empty()) out["routed_gpu_tier"] = node->gpu_class;
}

}  // namespace

RuntimeEstimate estimate_runtime(const model::JobSpec& spec) {
  RuntimeEstimate estimate;
  if (spec.sim.is_object() && spec.sim.contains("duration_s") && spec.sim["duration_s"].is_number()) {
    double minutes = std::max(spec.sim["duration_s"].get<double>(), 0.0) / 60.0;
    estimate = {minutes, minutes, minutes};
  } else {
    double minutes = base_minutes(spec.workload_type) * (1.0 + spec.model_size_gb.value_or(0) / 100.0);
    estimate = {minutes, minutes * 0.5, minutes * 1.5};
  }
  if (spec.timeout_seconds) {
    double cap = *spec.timeout_seconds / 60.0;
    estimate = {std::min(estimate.expected_minutes, cap), std::min(estimate.min_minutes, cap),
                std::min(estimate.max_minutes, cap)};
  }
  return estimate;
}

double likely_price(const RouteResult& route) { return route.likely_node ? route.likely_node->price_per_gpu_hour : 0; }

model::Json estimate_body(const model::JobSpec& spec, const screen::Screening& screening, const RouteResult& route,
                          model::Framing framing) {
  bool unplaceable = route.status == RouteResult::Status::unavailable;
  bool blocked = screening.blocked();
  Json out = {{"available", !unplaceable && !blocked}, {"can_submit", !unplaceable && !blocked}};
  out["screening"] = screen::screening_to_json(screening);
  out["classification"] = classification(spec, screening.intent);
  out["routing"] = routing(route);
  out["capacity"] = capacity(route);
  out["capacity_status"] = capacity_status(route);
  add_costs(out, spec, likely_price(route), framing);
  if (route.status == RouteResult::Status::queued)
    out["estimated_queue_wait_seconds"] = static_cast<int>(std::ceil(estimate_runtime(spec).expected_minutes * 60));
  add_likely_gpu(out, route.likely_node ? &*route.likely_node : nullptr);
  out["candidate_count"] = feasible_count(route);
  out["constraints_relaxed"] = Json::array();
  out["constraints_relaxed_applied"] = false;
  out["confidence"] = route.status == RouteResult::Status::available ? "high" : unplaceable ? "low" : "medium";
  out["explanation"] = route.explanation;
  out["unavailable_reason"] = nullptr;
  out["unavailable_code"] = nullptr;
  if (unplaceable) {
    out["unavailable_reason"] = route.explanation;
    out["unavailable_code"] = "CAPACITY_UNAVAILABLE";
  }
  if (blocked) {
    out["unavailable_reason"] = "screening blocked the workload: " + join_rules(screening.blocked_rules());
    out["unavailable_code"] = "SCREENING_REJECTED";
  }
  out["warnings"] = warning_texts(screening);
  return out;
}

}  // namespace jgrid::engine
