#pragma once
// The router's filters. A Demand is what one job asks, read once per
// routing call. Description filters look at what a node is (they decide
// "never": the job cannot run there even when the node is empty) and are
// evaluated once per node class; state reasons look at what a node is doing
// now (draining, full, held) and decide "not now".
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "jgrid/model/job_spec.hpp"
#include "jgrid/model/node.hpp"
#include "jgrid/screen/screen.hpp"

namespace jgrid::route {

struct Demand {
  const model::JobSpec& spec;
  const screen::Intent& intent;
  int gpus = 1;                             // max(gpu_count, 1)
  double vram_per_gpu = 0;                  // 0: no need stated
  std::vector<std::string> avoid_families;  // lower-case
  std::vector<std::string> regions;         // constraints.region_preference, lower-case
  bool region_strict = false;
  std::optional<double> max_price_per_hour;  // for the whole job
  std::vector<std::pair<std::string, std::string>> node_labels;
  std::string preferred_family;  // lower-case, "" none
  std::string mode;              // balanced | cost | speed
};

Demand make_demand(const model::JobSpec& spec, const screen::Intent& intent);

// Description filters split in two: those on what a whole node class shares
// (everything but labels, see FleetIndex) and the node-label filter, which
// looks at each node (labels do not split classes: a label per host would
// otherwise make every node a class of its own).
bool fits_class(const Demand& demand, const model::Node& node);
std::vector<std::string> class_reasons(const Demand& demand, const model::Node& node);
std::string first_class_reason(const Demand& demand, const model::Node& node);  // precondition: !fits_class
bool fits_labels(const Demand& demand, const model::Node& node);
std::string label_reason(const Demand& demand, const model::Node& node);  // precondition: !fits_labels
// The max_price_per_hour filter for one price per GPU-hour. Prices vary
// inside a class: the class filters check its cheapest node, and a class
// whose dearest node fails is looked at node by node.
bool fits_price(const Demand& demand, double price_per_gpu_hour);
std::string price_reason(const Demand& demand, const model::Node& node);  // precondition: !fits_price

// Every description filter (class filters, then labels).
bool fits_description(const Demand& demand, const model::Node& node);
// The refusals of the description filters, in filter order; empty when it fits.
std::vector<std::string> description_reasons(const Demand& demand, const model::Node& node);

// Not-now reasons from the node's live state, in order: status, free GPUs
// (only when the node has enough GPUs at all), held.
std::vector<std::string> state_reasons(const Demand& demand, const model::Node& node, bool held);

// The reason texts of state_reasons, for callers that count without a node.
std::string status_reason(model::NodeStatus status);
std::string free_gpus_reason(int gpus_free, int gpu_count);
extern const std::string k_held_reason;

// True when `region` is one of the demand's preferred regions.
bool region_preferred(const Demand& demand, const std::string& region);
bool equals_ignoring_case(std::string_view a, std::string_view b);

// "8", "1.5": a number as a reason shows it.
std::string format_number(double value);
// "$2.10"
std::string format_usd(double value);

}  // namespace jgrid::route
