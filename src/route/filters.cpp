#include "filters.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>

#include "jgrid/util/strings.hpp"

namespace jgrid::route {
namespace {

using model::Json;
using model::Node;

std::vector<std::string> lower_strings(const Json& constraints, const char* key) {
  std::vector<std::string> out;
  auto it = constraints.find(key);
  if (it == constraints.end()) return out;
  if (it->is_string()) out.push_back(util::to_lower(it->get<std::string>()));
  if (it->is_array())
    for (const auto& item : *it)
      if (item.is_string()) out.push_back(util::to_lower(item.get<std::string>()));
  return out;
}

std::string lower_string(const Json& constraints, const char* key) {
  auto values = lower_strings(constraints, key);
  return values.empty() ? "" : values.front();
}

std::vector<std::pair<std::string, std::string>> label_pairs(const Json& constraints) {
  std::vector<std::pair<std::string, std::string>> out;
  auto it = constraints.find("node_labels");
  if (it == constraints.end() || !it->is_object()) return out;
  for (const auto& [key, value] : it->items())
    out.emplace_back(key, value.is_string() ? value.get<std::string>() : value.dump());
  return out;
}

bool contains(const std::vector<std::string>& lowered, std::string_view value) {
  return std::any_of(lowered.begin(), lowered.end(),
                     [&](const std::string& item) { return equals_ignoring_case(item, value); });
}

double hourly_rate(const Demand& d, const Node& node) { return node.price_per_gpu_hour * d.gpus; }

const std::string* missing_label(const Demand& d, const Node& node) {
  for (const auto& [key, value] : d.node_labels) {
    auto it = node.labels.find(key);
    if (it == node.labels.end() || it->second != value) return &key;
  }
  return nullptr;
}

// One description filter: a cheap test, and the reason text only when it refuses.
struct Filter {
  bool (*pass)(const Demand&, const Node&);
  std::string (*reason)(const Demand&, const Node&);
};

bool vendor_ok(const Demand& d, const Node& n) { return d.intent.vendor.empty() || n.gpu_vendor == d.intent.vendor; }
std::string vendor_reason(const Demand& d, const Node& n) { return "vendor " + n.gpu_vendor + " ≠ " + d.intent.vendor; }

// A vendor mismatch already says it all: the runtime only matters within a vendor.
bool runtime_ok(const Demand& d, const Node& n) {
  return d.intent.runtime.empty() || n.runtime == d.intent.runtime || !vendor_ok(d, n);
}
std::string runtime_reason(const Demand& d, const Node& n) { return "runtime " + n.runtime + " ≠ " + d.intent.runtime; }

bool gpus_ok(const Demand& d, const Node& n) { return d.gpus <= n.gpu_count; }
std::string gpus_reason(const Demand& d, const Node& n) {
  return "needs " + std::to_string(d.gpus) + " GPUs, node has " + std::to_string(n.gpu_count);
}

bool vram_ok(const Demand& d, const Node& n) { return d.vram_per_gpu <= n.vram_gb; }
std::string vram_reason(const Demand& d, const Node& n) {
  return "needs " + format_number(d.vram_per_gpu) + " GB VRAM per GPU, node has " + format_number(n.vram_gb) + " GB";
}

bool type_ok(const Demand& d, const Node& n) {
  return d.spec.gpu_type.empty() || equals_ignoring_case(d.spec.gpu_type, n.gpu_model);
}
std::string type_reason(const Demand& d, const Node& n) { return "gpu_type " + d.spec.gpu_type + " ≠ " + n.gpu_model; }

bool class_ok(const Demand& d, const Node& n) {
  return d.spec.gpu_class.empty() || equals_ignoring_case(d.spec.gpu_class, n.gpu_class);
}
std::string class_reason(const Demand& d, const Node& n) {
  return "gpu_class " + d.spec.gpu_class + " ≠ " + n.gpu_class;
}

bool family_ok(const Demand& d, const Node& n) { return !contains(d.avoid_families, n.gpu_family); }
std::string family_reason(const Demand&, const Node& n) { return "gpu family " + n.gpu_family + " is avoided"; }

bool region_ok(const Demand& d, const Node& n) {
  return !d.region_strict || d.regions.empty() || contains(d.regions, n.region);
}
std::string region_reason(const Demand&, const Node& n) {
  return "region " + n.region + " not in region_preference (strict)";
}

bool price_ok(const Demand& d, const Node& n) { return fits_price(d, n.price_per_gpu_hour); }
std::string price_text(const Demand& d, const Node& n) { return price_reason(d, n); }

// Cheap first; the order is also the order reasons are listed in.
const std::array<Filter, 9> k_filters = {{
    {vendor_ok, vendor_reason},
    {runtime_ok, runtime_reason},
    {gpus_ok, gpus_reason},
    {vram_ok, vram_reason},
    {type_ok, type_reason},
    {class_ok, class_reason},
    {family_ok, family_reason},
    {region_ok, region_reason},
    {price_ok, price_text},
}};

}  // namespace

const std::string k_held_reason = "held for an earlier waiting job";

Demand make_demand(const model::JobSpec& spec, const screen::Intent& intent) {
  Demand d{spec, intent};
  static const Json k_none = Json::object();
  const Json& c = spec.constraints.is_object() ? spec.constraints : k_none;
  d.gpus = std::max(spec.gpu_count, 1);
  d.vram_per_gpu = spec.min_vram_gb.value_or(0);
  if (spec.model_size_gb) d.vram_per_gpu = std::max(d.vram_per_gpu, *spec.model_size_gb * 1.2 / d.gpus);
  d.avoid_families = lower_strings(c, "avoid_gpu_families");
  d.regions = lower_strings(c, "region_preference");
  d.region_strict = lower_string(c, "region_mode") == "strict";
  if (auto it = c.find("max_price_per_hour"); it != c.end() && it->is_number())
    d.max_price_per_hour = it->get<double>();
  d.node_labels = label_pairs(c);
  d.preferred_family = lower_string(c, "preferred_gpu_family");
  d.mode = spec.optimize_for == "cost" || spec.optimize_for == "speed" ? spec.optimize_for : "balanced";
  return d;
}

bool fits_class(const Demand& demand, const Node& node) {
  return std::all_of(k_filters.begin(), k_filters.end(), [&](const Filter& f) { return f.pass(demand, node); });
}

std::vector<std::string> class_reasons(const Demand& demand, const Node& node) {
  std::vector<std::string> reasons;
  for (const Filter& filter : k_filters)
    if (!filter.pass(demand, node)) reasons.push_back(filter.reason(demand, node));
  return reasons;
}

std::string first_class_reason(const Demand& demand, const Node& node) {
  auto failing =
      std::find_if(k_filters.begin(), k_filters.end(), [&](const Filter& f) { return !f.pass(demand, node); });
  return failing == k_filters.end() ? "" : failing->reason(demand, node);
}

bool fits_labels(const Demand& demand, const Node& node) { return missing_label(demand, node) == nullptr; }

bool fits_price(const Demand& demand, double price_per_gpu_hour) {
  return !demand.max_price_per_hour || price_per_gpu_hour * demand.gpus <= *demand.max_price_per_hour;
}

std::string price_reason(const Demand& d, const Node& n) {
  return "price " + format_usd(hourly_rate(d, n)) + "/hour for " + std::to_string(d.gpus) + " GPU" +
         (d.gpus == 1 ? "" : "s") + " > max_price_per_hour " + format_usd(*d.max_price_per_hour);
}

std::string label_reason(const Demand& demand, const Node& node) {
  const std::string& key = *missing_label(demand, node);
  auto wanted = std::find_if(demand.node_labels.begin(), demand.node_labels.end(),
                             [&](const auto& pair) { return pair.first == key; });
  return "node label " + key + "=" + wanted->second + " missing";
}

bool fits_description(const Demand& demand, const Node& node) {
  return fits_class(demand, node) && fits_labels(demand, node);
}

std::vector<std::string> description_reasons(const Demand& demand, const Node& node) {
  std::vector<std::string> reasons = class_reasons(demand, node);
  if (!fits_labels(demand, node)) reasons.push_back(label_reason(demand, node));
  return reasons;
}

std::string status_reason(model::NodeStatus status) { return "node is " + std::string(model::to_string(status)); }

std::string free_gpus_reason(int gpus_free, int gpu_count) {
  return std::to_string(std::max(gpus_free, 0)) + " of " + std::to_string(gpu_count) + " GPUs free";
}

std::vector<std::string> state_reasons(const Demand& demand, const Node& node, bool held) {
  std::vector<std::string> reasons;
  if (node.status == model::NodeStatus::draining || node.status == model::NodeStatus::offline)
    reasons.push_back(status_reason(node.status));
  if (demand.gpus <= node.gpu_count && node.gpus_free < demand.gpus)
    reasons.push_back(free_gpus_reason(node.gpus_free, node.gpu_count));
  if (held) reasons.push_back(k_held_reason);
  return reasons;
}

bool region_preferred(const Demand& demand, const std::string& region) { return contains(demand.regions, region); }

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [&](char x, char y) { return lower(x) == lower(y); });
}

std::string format_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

// to_chars prints as printf's "%.2f" does, without its locale and format parsing.
std::string format_usd(double value) {
  char text[48];
  text[0] = '$';
  char* end = std::to_chars(text + 1, text + sizeof text, value, std::chars_format::fixed, 2).ptr;
  return std::string(text, end);
}

}  // namespace jgrid::route
