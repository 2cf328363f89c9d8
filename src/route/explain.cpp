#include "explain.hpp"

#include <algorithm>
#include <charconv>
#include <map>

namespace jgrid::route {
namespace {

const std::string k_cuda_only_fix =
    "declare ROCm compatibility (gpu_vendor: amd + runtime: rocm with a ROCm image) to run on AMD, "
    "or select an NVIDIA route (gpu_vendor: nvidia) on a fleet with NVIDIA capacity";

std::string stack_name(const screen::Intent& intent) {
  std::string vendor = intent.vendor == "amd" ? "AMD" : "NVIDIA";
  std::string runtime = intent.runtime == "cuda" ? "CUDA" : intent.runtime == "rocm" ? "ROCm" : "";
  return runtime.empty() ? vendor : vendor + "/" + runtime;
}

bool fleet_has_stack(const screen::Intent& intent, const FleetIndex& fleet) {
  const auto& ids = fleet.classes_of_vendor(intent.vendor);
  return std::any_of(ids.begin(), ids.end(), [&](std::uint32_t id) {
    const model::Node& node = fleet.node(fleet.classes()[id].prototype);
    return intent.runtime.empty() || node.runtime == intent.runtime;
  });
}

// Counts the nodes of each class that cannot take the job now: a whole class
// by its first class reason, else its nodes by live state (counts kept per
// class, no node visited) or, for jobs asking for node labels, node by node.
class ClassCounter {
 public:
  ClassCounter(const Demand& d, const FleetIndex& fleet) : m_d(d), m_fleet(fleet) {}

  void count(const NodeClass& c, bool held) {
    const model::Node& prototype = m_fleet.node(c.prototype);
    if (!fits_class(m_d, prototype)) {
      // The prototype is the cheapest node: failing on price alone, each
      // node fails with its own price in the reason.
      std::string reason = first_class_reason(m_d, prototype);
      if (c.min_price != c.max_price && reason == price_reason(m_d, prototype))
        count_each(c, held);
      else
        m_counts.add(std::move(reason), c.slots.size());
    } else if (!m_d.node_labels.empty() || !fits_price(m_d, c.max_price)) {
      count_each(c, held);
    } else {
      count_states(c, held);
    }
  }
  std::string text() const { return m_counts.text(); }

 private:
  void count_states(const NodeClass& c, bool held) {
    if (c.draining > 0) m_counts.add(status_reason(model::NodeStatus::draining), static_cast<std::size_t>(c.draining));
    if (c.offline > 0) m_counts.add(status_reason(model::NodeStatus::offline), static_cast<std::size_t>(c.offline));
    for (int free = 0; free <= c.gpu_count; ++free) {
      auto nodes = static_cast<std::size_t>(c.online_by_free[static_cast<std::size_t>(free)]);
      if (nodes == 0) continue;
      if (free < m_d.gpus)
        m_counts.add(free_reason(free, c.gpu_count), nodes);
      else if (held)
        m_counts.add(k_held_reason, nodes);
    }
  }

  // Node by node, for jobs that ask for node labels or whose max price falls
  // inside the class's prices (labels and prices vary within a class).
  void count_each(const NodeClass& c, bool held) {
    for (std::size_t slot : c.slots) {
      const model::Node& node = m_fleet.node(slot);
      if (!fits_price(m_d, node.price_per_gpu_hour)) {
        m_counts.add(price_reason(m_d, node), 1);
        continue;
      }
      if (!fits_labels(m_d, node)) {
        m_counts.add(label_reason(m_d, node), 1);
        continue;
      }
      auto reasons = state_reasons(m_d, node, held);
      if (!reasons.empty()) m_counts.add(reasons.front(), 1);
    }
  }

  // Texts for up to 16 GPUs a node are built once per process: a summary
  // names one per class for every job routed.
  const std::string& free_reason(int free, int gpu_count) {
    constexpr int k_table_gpus = 16;
    static const std::vector<std::string> k_table = [] {
      std::vector<std::string> table;
      for (int count = 0; count <= k_table_gpus; ++count)
        for (int left = 0; left <= k_table_gpus; ++left) table.push_back(free_gpus_reason(left, count));
      return table;
    }();
    if (gpu_count >= 0 && gpu_count <= k_table_gpus && free >= 0 && free <= k_table_gpus)
      return k_table[static_cast<std::size_t>(gpu_count * (k_table_gpus + 1) + free)];
    auto [it, added] = m_free_reasons.try_emplace({free, gpu_count});
    if (added) it->second = free_gpus_reason(free, gpu_count);
    return it->second;
  }

  const Demand& m_d;
  const FleetIndex& m_fleet;
  ReasonCounts m_counts;
  std::map<std::pair<int, int>, std::string> m_free_reasons;
};

std::string explain_cuda_only(const RouteResult& result, const screen::Intent& intent, const FleetIndex& fleet) {
  std::string why = intent.reasons.empty() ? "" : " (" + intent.reasons.front() + ")";
  if (!fleet_has_stack(intent, fleet))
    return "no NVIDIA/CUDA node in the fleet for a workload that looks CUDA-only" + why +
           ", and it is never placed on AMD: " + k_cuda_only_fix;
  return "no NVIDIA/CUDA node in the fleet can run this workload that looks CUDA-only" + why + ": " + result.filtered +
         "; " + k_cuda_only_fix;
}

const std::string k_unknown_stack_fix =
    "declare gpu_vendor: amd and runtime: rocm if the image is a ROCm build (or label it io.junglegrid.runtime=rocm), "
    "or select an NVIDIA route on a fleet with NVIDIA capacity";

// Without ROCm evidence a GPU job may not go to AMD (only NVIDIA capacity counts).
std::string explain_unknown_stack(const RouteResult& result, const screen::Intent& intent, const FleetIndex& fleet) {
  std::string why = intent.reasons.empty() ? "" : " (" + intent.reasons.front() + ")";
  if (!fleet_has_stack(intent, fleet))
    return "no NVIDIA node in the fleet, and a job without ROCm evidence is never placed on AMD" + why + ": " +
           k_unknown_stack_fix;
  return "no NVIDIA node in the fleet can run this job without ROCm evidence" + why + ": " + result.filtered + "; " +
         k_unknown_stack_fix;
}

std::string explain_unavailable(const RouteResult& result, const Demand& d, const FleetIndex& fleet) {
  if (fleet.size() == 0) return "no node in the fleet: add capacity";
  if (d.intent.unknown_cuda_heavy) return explain_cuda_only(result, d.intent, fleet);
  if (d.intent.unknown_stack) return explain_unknown_stack(result, d.intent, fleet);
  if (!d.intent.vendor.empty() && !fleet_has_stack(d.intent, fleet))
    return "no " + stack_name(d.intent) + " node in the fleet: declare a different route or add capacity";
  return "no node in the fleet can run this job: " + result.filtered;
}

}  // namespace

void ReasonCounts::add(std::string_view reason, std::size_t nodes) {
  if (auto* count = find(reason))
    *count += nodes;
  else
    m_counts.emplace_back(reason, nodes);
}

void ReasonCounts::add(std::string&& reason, std::size_t nodes) {
  if (auto* count = find(reason))
    *count += nodes;
  else
    m_counts.emplace_back(std::move(reason), nodes);
}

std::size_t* ReasonCounts::find(std::string_view reason) {
  auto it = std::find_if(m_counts.begin(), m_counts.end(), [&](const auto& entry) { return entry.first == reason; });
  return it == m_counts.end() ? nullptr : &it->second;
}

// Sorts pointers, not the reasons: this runs for every job placed.
std::string ReasonCounts::text() const {
  std::vector<const std::pair<std::string, std::size_t>*> sorted;
  sorted.reserve(m_counts.size());
  for (const auto& entry : m_counts) sorted.push_back(&entry);
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) { return a->second > b->second; });
  std::size_t size = 0;
  for (const auto* entry : sorted) size += entry->first.size() + 32;
  std::string text;
  text.reserve(size);
  char digits[24];
  for (const auto* entry : sorted) {
    if (!text.empty()) text += "; ";
    text.append(digits, std::to_chars(digits, digits + sizeof digits, entry->second).ptr);
    text += entry->second == 1 ? " node: " : " nodes: ";
    text += entry->first;
  }
  return text;
}

std::string summarize_fleet(const Demand& demand, const FleetIndex& fleet, const std::set<std::uint32_t>* held) {
  ClassCounter counter(demand, fleet);
  for (const NodeClass& node_class : fleet.classes()) counter.count(node_class, held && held->count(node_class.id) > 0);
  return counter.text();
}

std::string explain(const RouteResult& result, const Demand& demand, const FleetIndex& fleet) {
  switch (result.status) {
    case RouteResult::Status::available:
      return "placed on " + result.placement->node_name + " (" + result.placement->gpu_model +
             "): " + result.placement->reason;
    case RouteResult::Status::queued:
      return "no node has free capacity now: " + result.filtered;
    case RouteResult::Status::unavailable:
      break;
  }
  return explain_unavailable(result, demand, fleet);
}

}  // namespace jgrid::route
