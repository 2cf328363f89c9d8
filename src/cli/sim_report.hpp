#pragma once
// `simulate --report FILE.html`: one self-contained HTML page (inline CSS,
// JS and SVG; no network, no build step) with, per run, queued jobs and
// running GPUs per pool over simulated time and the queue wait distribution
// per GPU model, and for a sweep the chosen metric against the swept value.
// The numbers it shows come from the same summaries `--json` prints.
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "jgrid/util/result.hpp"
#include "sim_series.hpp"
#include "sim_summary.hpp"
#include "sim_sweep.hpp"

namespace jgrid::cli {

// Upper bounds of the wait histogram's bins, in seconds (the last bin holds
// everything above the last bound).
inline const std::vector<double> k_wait_bins_s = {1, 10, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200};

// Counts of `waits` per bin of k_wait_bins_s (one more than the bounds).
std::vector<long long> wait_histogram(const std::vector<double>& waits);

// Collects the points of one `simulate` call, then writes the page.
// Not thread-safe.
class SimReport {
 public:
  // `paths`: the swept paths (none without --sweep); `metric` checked by
  // check_metric(); `title` names the trace and fleet.
  SimReport(std::vector<std::string> paths, std::string metric, std::string title);

  // Opens `path` for writing now, so a bad path fails before anything runs.
  // Error IO_ERROR "--report: cannot write <path>".
  Status open(const std::string& path);

  // `summary_json` is what --json prints for the point.
  void add_point(const SweepPoint& point, const nlohmann::json& summary_json, const SimSummary& summary,
                 const SimSeries& series);

  // What the page embeds: {title, paths, metric, wait_bins_s, points: [{point,
  // label, metric, summary, series, wait_histogram}]}.
  nlohmann::json data() const;
  // Writes the page to the opened file. Error IO_ERROR.
  Status write();

 private:
  std::vector<std::string> m_paths;
  std::string m_metric, m_title, m_path;
  nlohmann::json m_points = nlohmann::json::array();
  std::ofstream m_out;
};

// The whole page for `data` (SimReport::data() shape); every `<` in the data is
// written \u003c so no text of it can end the script element.
std::string report_html(const nlohmann::json& data);

}  // namespace jgrid::cli
