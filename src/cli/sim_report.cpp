#include "sim_report.hpp"

#include <algorithm>

#include "sim_metric.hpp"

namespace jgrid::cli {

std::vector<long long> wait_histogram(const std::vector<double>& waits) {
  std::vector<long long> counts(k_wait_bins_s.size() + 1, 0);
  for (double wait : waits) {
    auto bin = std::upper_bound(k_wait_bins_s.begin(), k_wait_bins_s.end(), wait) - k_wait_bins_s.begin();
    ++counts[static_cast<std::size_t>(bin)];
  }
  return counts;
}

SimReport::SimReport(std::vector<std::string> paths, std::string metric, std::string title)
    : m_paths(std::move(paths)), m_metric(std::move(metric)), m_title(std::move(title)) {}

Status SimReport::open(const std::string& path) {
  m_path = path;
  m_out.open(path);
  if (!m_out) return make_error("IO_ERROR", "--report: cannot write " + path);
  return Ok{};
}

void SimReport::add_point(const SweepPoint& point, const nlohmann::json& summary_json, const SimSummary& summary,
                          const SimSeries& series) {
  nlohmann::json histogram = nlohmann::json::object();
  for (const auto& [label, waits] : summary.waits()) histogram[label] = wait_histogram(waits);
  m_points.push_back({{"point", point_json(point)},
                      {"label", point.empty() ? "run" : point_text(point)},
                      {"metric", metric_value(summary_json, m_metric)},
                      {"summary", summary_json},
                      {"series", series.to_json()},
                      {"wait_histogram", histogram}});
}

nlohmann::json SimReport::data() const {
  return {{"title", m_title}, {"paths", m_paths}, {"metric", m_metric}, {"wait_bins_s", k_wait_bins_s},
          {"points", m_points}};
}

Status SimReport::write() {
  m_out << report_html(data());
  m_out.close();
  if (!m_out) return make_error("IO_ERROR", "--report: cannot write " + m_path);
  return Ok{};
}

}  // namespace jgrid::cli
