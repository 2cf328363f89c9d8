#include "sim_metric.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "jgrid/model/status.hpp"

namespace jgrid::cli {
namespace {

using Json = nlohmann::json;

// A metric is HEAD, or HEAD.KEY.FIELD (KEY may hold dots), or HEAD.KEY.
struct Parts {
  std::string head, key, field;
};

Parts split_metric(const std::string& metric) {
  auto first = metric.find('.');
  if (first == std::string::npos) return {metric, "", ""};
  std::string rest = metric.substr(first + 1);
  if (metric.starts_with("by_status.") || metric.starts_with("failure_codes.")) return {metric.substr(0, first), rest, ""};
  auto last = rest.rfind('.');
  if (last == std::string::npos) return {metric.substr(0, first), rest, ""};
  return {metric.substr(0, first), rest.substr(0, last), rest.substr(last + 1)};
}

const std::set<std::string> k_plain = {"jobs", "retries", "cost_usd", "simulated_seconds", "refused_at_submit"};
const std::set<std::string> k_wait_fields = {"p50", "p95", "p99", "jobs"};
const std::set<std::string> k_pool_fields = {"utilisation", "busy_gpu_hours", "gpus"};

std::string model_label(const model::Node& node) { return model::vendor_display(node.gpu_vendor) + " " + node.gpu_model; }

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ", ") + name;
  return out.empty() ? "none" : out;
}

// The fleet's model labels or pools, in fleet order, once each.
std::vector<std::string> fleet_names(const exec::Fleet& fleet, bool models) {
  std::vector<std::string> names;
  for (const auto& node : fleet.nodes) {
    std::string name = models ? model_label(node) : node.pool;
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  return names;
}

Error invalid_metric(const std::string& metric, const std::string& expected) {
  return make_error("INVALID_METRIC", "--report-metric " + metric + ": expected " + expected);
}

const char* k_forms =
    "one of jobs, retries, cost_usd, simulated_seconds, refused_at_submit, by_status.<status>, failure_codes.<code>, "
    "queue_wait_s.<vendor model>.{p50,p95,p99,jobs} or gpu_utilisation.<pool>.{utilisation,busy_gpu_hours,gpus}";

Status check_keyed(const std::string& metric, const Parts& parts, const exec::Fleet& fleet) {
  bool wait = parts.head == "queue_wait_s";
  const auto& fields = wait ? k_wait_fields : k_pool_fields;
  if (!fields.count(parts.field)) return invalid_metric(metric, k_forms);
  auto names = fleet_names(fleet, wait);
  if (std::find(names.begin(), names.end(), parts.key) == names.end())
    return invalid_metric(metric, std::string(wait ? "a GPU model of the fleet (" : "a pool of the fleet (") +
                                      joined(names) + ")");
  return Ok{};
}

}  // namespace

std::string default_metric(const exec::Fleet& fleet) {
  const model::Node* largest = nullptr;
  std::map<std::string, long long> gpus;
  for (const auto& node : fleet.nodes) gpus[model_label(node)] += node.gpu_count;
  for (const auto& node : fleet.nodes)
    if (!largest || node.vram_gb > largest->vram_gb ||
        (node.vram_gb == largest->vram_gb && gpus[model_label(node)] > gpus[model_label(*largest)]))
      largest = &node;
  return largest ? "queue_wait_s." + model_label(*largest) + ".p95" : "cost_usd";
}

Status check_metric(const std::string& metric, const exec::Fleet& fleet) {
  Parts parts = split_metric(metric);
  if (parts.key.empty()) return k_plain.count(parts.head) ? Status(Ok{}) : Status(invalid_metric(metric, k_forms));
  if (parts.head == "by_status") {
    if (model::parse_job_status(parts.key)) return Ok{};
    return invalid_metric(metric, "a job status (completed, failed, cancelled, rejected, …)");
  }
  if (parts.head == "failure_codes") return Ok{};
  if (parts.head == "queue_wait_s" || parts.head == "gpu_utilisation") return check_keyed(metric, parts, fleet);
  return invalid_metric(metric, k_forms);
}

Json metric_value(const Json& summary, const std::string& metric) {
  Parts parts = split_metric(metric);
  if (parts.key.empty()) return summary.value(parts.head, Json());
  auto section = summary.find(parts.head);
  if (section == summary.end() || !section->is_object() || !section->contains(parts.key))
    return parts.field.empty() ? Json(0) : Json();
  const Json& entry = section->at(parts.key);
  if (parts.field.empty()) return entry;
  return entry.value(parts.field, Json());
}

}  // namespace jgrid::cli
