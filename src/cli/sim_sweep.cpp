#include "sim_sweep.hpp"

#include <charconv>
#include <cstdlib>
#include <optional>
#include <set>

#include "jgrid/util/strings.hpp"

namespace jgrid::cli {
namespace {

Error invalid_sweep(const std::string& argument, const std::string& problem) {
  return make_error("INVALID_SWEEP", "--sweep " + argument + ": " + problem);
}

std::optional<long long> read_integer(const std::string& text) {
  long long value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// "A..B" appended as A, A+1, …, B; false (and nothing appended) when
// `text` is not such a range.
Status append_range(const std::string& argument, const std::string& text, std::vector<std::string>& values,
                    bool& was_range) {
  auto dots = text.find("..");
  was_range = dots != std::string::npos;
  if (!was_range) return Ok{};
  auto from = read_integer(text.substr(0, dots)), to = read_integer(text.substr(dots + 2));
  if (!from || !to || *from > *to)
    return invalid_sweep(argument, "expected a range A..B of integers with A <= B, got \"" + text + "\"");
  if (*to - *from >= static_cast<long long>(k_max_sweep_points))
    return invalid_sweep(argument, "expected at most " + std::to_string(k_max_sweep_points) + " values, got \"" +
                                       text + "\"");
  for (long long v = *from; v <= *to; ++v) values.push_back(std::to_string(v));
  return Ok{};
}

nlohmann::json typed(const std::string& text) {
  if (auto integer = read_integer(text)) return *integer;
  char* end = nullptr;
  double number = std::strtod(text.c_str(), &end);
  if (!text.empty() && end == text.c_str() + text.size() &&
      text.find_first_not_of("0123456789+-.eE") == std::string::npos)
    return number;
  return text;
}

}  // namespace

Result<SweepAxis> parse_sweep_axis(const std::string& text) {
  auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0)
    return invalid_sweep(text, "expected PATH=VALUE[,VALUE…], e.g. pools.mi300x-east.count=2,4,8");
  SweepAxis axis{util::trim(text.substr(0, equals)), {}};
  for (const auto& raw : util::split(text.substr(equals + 1), ',')) {
    std::string value = util::trim(raw);
    if (value.empty()) return invalid_sweep(text, "expected a value between the commas, got an empty one");
    bool was_range = false;
    if (auto range = append_range(text, value, axis.values, was_range); !range) return range.error();
    if (!was_range) axis.values.push_back(value);
  }
  if (axis.values.empty()) return invalid_sweep(text, "expected at least one value after '='");
  return axis;
}

Result<std::vector<SweepPoint>> sweep_points(const std::vector<SweepAxis>& axes) {
  std::size_t count = 1;
  std::set<std::string> paths;
  for (const auto& axis : axes) {
    if (!paths.insert(axis.path).second) return invalid_sweep(axis.path, "expected each path in one --sweep only");
    count *= axis.values.size();
    if (count > k_max_sweep_points)
      return invalid_sweep(axis.path, "the grid has more than " + std::to_string(k_max_sweep_points) + " points");
  }
  std::vector<SweepPoint> points(1);
  for (const auto& axis : axes) {
    std::vector<SweepPoint> grown;
    for (const auto& point : points)
      for (const auto& value : axis.values) {
        grown.push_back(point);
        grown.back().emplace_back(axis.path, value);
      }
    points = std::move(grown);
  }
  return points;
}

Result<exec::FleetDocument> apply_point(exec::FleetDocument document, const SweepPoint& point) {
  for (const auto& [path, value] : point) {
    auto set = exec::set_fleet_value(document, path, value);
    if (!set.ok()) return invalid_sweep(path + "=" + value, set.error().message);
  }
  return document;
}

nlohmann::json point_json(const SweepPoint& point) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [path, value] : point) out[path] = typed(value);
  return out;
}

std::string point_text(const SweepPoint& point) {
  std::string out;
  for (const auto& [path, value] : point) out += (out.empty() ? "" : " ") + path + "=" + value;
  return out;
}

}  // namespace jgrid::cli
