#pragma once
// `simulate --sweep PATH=VALUES`: the settings one run of the same trace
// and seed is made for, point by point. Each axis is one setting of the
// fleet document (exec::set_fleet_value) and its values; several axes make
// a grid (their cartesian product).
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "jgrid/exec/fleet_document.hpp"
#include "jgrid/util/result.hpp"

namespace jgrid::cli {

inline constexpr std::size_t k_max_sweep_points = 1000;

struct SweepAxis {
  std::string path;                 // "pools.mi300x-east.count"
  std::vector<std::string> values;  // as written, ranges expanded
};

// One point of the grid: (path, value) per axis, in axis order.
using SweepPoint = std::vector<std::pair<std::string, std::string>>;

// Reads "PATH=V1,V2,…". A value "A..B" (integers, A <= B, at most
// k_max_sweep_points values) stands for A, A+1, …, B. Error INVALID_SWEEP
// naming the argument and what was expected ("expected PATH=VALUE[,VALUE…]",
// "pools.x.count=: expected at least one value").
Result<SweepAxis> parse_sweep_axis(const std::string& text);

// The cartesian product, the first axis varying slowest. No axes: one point
// with no settings. Error INVALID_SWEEP when it has more than
// k_max_sweep_points points, or when two axes name the same path.
Result<std::vector<SweepPoint>> sweep_points(const std::vector<SweepAxis>& axes);

// `document` with the point's settings applied. Error INVALID_SWEEP
// "--sweep PATH=VALUE: <problem>" (an unknown path or a value of the wrong
// kind).
Result<exec::FleetDocument> apply_point(exec::FleetDocument document, const SweepPoint& point);

// {"pools.mi300x-east.count": 8, …}: values that read as numbers are numbers.
nlohmann::json point_json(const SweepPoint& point);

// "pools.mi300x-east.count=8 seed=3" (empty for no settings).
std::string point_text(const SweepPoint& point);

}  // namespace jgrid::cli
