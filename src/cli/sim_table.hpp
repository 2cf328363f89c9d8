#pragma once
// The table `simulate --sweep` prints: one row per point, with the swept
// values, jobs by final status, retries, queue wait p50/p95/p99 per GPU
// model, busy GPU share per pool, cost and simulated span.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace jgrid::cli {

// `points`: the `--json` array ({point: {path: value}, <summary members>}).
// Columns of statuses, models and pools are the union over the points; a
// point without a value prints "-". Ends with a newline.
std::string sweep_table(const nlohmann::json& points, const std::vector<std::string>& paths);

}  // namespace jgrid::cli
