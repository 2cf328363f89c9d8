#pragma once
// `simulate --report-metric`: one number of a run's summary, named by a
// dotted path into the summary JSON (`queue_wait_s.AMD MI300X.p95`,
// `cost_usd`, `retries`, `gpu_utilisation.mi300x-east.utilisation`, …),
// which the report draws against the swept value.
#include <nlohmann/json.hpp>
#include <string>

#include "jgrid/exec/fleet.hpp"
#include "jgrid/util/result.hpp"

namespace jgrid::cli {

// The p95 queue wait of the fleet's largest GPU model (most VRAM per GPU,
// then most GPUs): "queue_wait_s.AMD MI300X.p95"; "cost_usd" for a fleet
// with no nodes.
std::string default_metric(const exec::Fleet& fleet);

// Ok when `metric` names a number a summary of a run on `fleet` has (the
// GPU model and the pool must be in the fleet). Error INVALID_METRIC
// "--report-metric X: expected one of …" naming the forms and, for a
// model or pool, the ones the fleet has.
Status check_metric(const std::string& metric, const exec::Fleet& fleet);

// The metric's value in `summary`: a number, 0 for a status or failure code
// no job had, null when the model had no job (no wait to measure).
nlohmann::json metric_value(const nlohmann::json& summary, const std::string& metric);

}  // namespace jgrid::cli
