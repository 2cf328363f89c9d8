#include "sim_table.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace jgrid::cli {
namespace {

using Json = nlohmann::json;
using Row = std::vector<std::string>;

std::string fixed(double value, int decimals) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(decimals) << value;
  return out.str();
}

std::string scalar(const Json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_null()) return "-";
  return value.dump();
}

// The keys of `section` over every point, in first-seen order.
std::vector<std::string> union_keys(const Json& points, const char* section) {
  std::vector<std::string> keys;
  for (const auto& point : points) {
    const Json members = point.value(section, Json::object());
    for (const auto& [key, ignored] : members.items())
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  }
  return keys;
}

std::string wait_cell(const Json& point, const std::string& label) {
  const Json waits = point.value("queue_wait_s", Json::object());
  if (!waits.contains(label)) return "-";
  const Json& w = waits[label];
  return fixed(w.value("p50", 0.0), 1) + "/" + fixed(w.value("p95", 0.0), 1) + "/" + fixed(w.value("p99", 0.0), 1);
}

std::string busy_cell(const Json& point, const std::string& pool) {
  const Json pools = point.value("gpu_utilisation", Json::object());
  if (!pools.contains(pool)) return "-";
  return fixed(pools[pool].value("utilisation", 0.0) * 100.0, 1) + "%";
}

std::string render(const std::vector<Row>& rows) {
  std::vector<std::size_t> widths(rows[0].size(), 0);
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  std::ostringstream out;
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c)
      out << (c ? "  " : "") << std::setw(static_cast<int>(widths[c])) << (c ? std::right : std::left) << row[c];
    out << "\n";
  }
  return out.str();
}

}  // namespace

std::string sweep_table(const Json& points, const std::vector<std::string>& paths) {
  auto statuses = union_keys(points, "by_status");
  auto models = union_keys(points, "queue_wait_s");
  auto pools = union_keys(points, "gpu_utilisation");
  Row header = paths;
  for (const auto& status : statuses) header.push_back(status);
  header.push_back("retries");
  for (const auto& model : models) header.push_back(model + " wait p50/p95/p99 s");
  for (const auto& pool : pools) header.push_back(pool + " busy");
  header.insert(header.end(), {"cost $", "span s"});
  std::vector<Row> rows{header};
  for (const auto& point : points) {
    Row row;
    for (const auto& path : paths) row.push_back(scalar(point["point"].value(path, Json())));
    for (const auto& status : statuses)
      row.push_back(std::to_string(point.value("by_status", Json::object()).value(status, 0LL)));
    row.push_back(std::to_string(point.value("retries", 0LL)));
    for (const auto& model : models) row.push_back(wait_cell(point, model));
    for (const auto& pool : pools) row.push_back(busy_cell(point, pool));
    row.push_back(fixed(point.value("cost_usd", 0.0), 2));
    row.push_back(fixed(point.value("simulated_seconds", 0.0), 1));
    rows.push_back(std::move(row));
  }
  return render(rows);
}

}  // namespace jgrid::cli
