#include "sim_summary.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace jgrid::cli {
namespace {

using Json = nlohmann::json;

bool ends_run(const std::string& type) {
  return type == "job.retrying" || type == "job.completed" || type == "job.failed" || type == "job.cancelled" ||
         type == "job.rejected";
}

bool ends_job(const std::string& type) { return type != "job.retrying" && ends_run(type); }

// Nearest-rank percentile of sorted values.
double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(sorted.size())));
  return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

double round3(double value) { return std::round(value * 1000.0) / 1000.0; }

}  // namespace

SimSummary::SimSummary(const exec::Fleet& fleet) : m_fleet(fleet) {
  for (const auto& node : fleet.nodes) m_nodes[node.id] = &node;
}

void SimSummary::add_event(const model::Event& event) {
  Run& run = m_runs[event.job_id];
  const std::string& type = event.type;
  if (run.submitted_ms < 0) run.submitted_ms = event.created_ms;
  if (type == "job.assigned") {
    run.node_id = event.data.value("node_id", "");
    run.gpus = static_cast<int>(event.data.value("gpu_indices", Json::array()).size());
    if (run.assigned_ms < 0) {
      run.assigned_ms = event.created_ms;
      auto node = m_nodes.find(run.node_id);
      if (node != m_nodes.end())
        m_waits[model::vendor_display(node->second->gpu_vendor) + " " + node->second->gpu_model].push_back(
            static_cast<double>(run.assigned_ms - run.submitted_ms) / 1000.0);
    }
  }
  if (type == "job.running") run.running_ms = event.created_ms;
  if (type == "job.retrying") ++m_retries;
  if (ends_run(type)) end_run(run, event.created_ms);
  if (ends_job(type)) m_runs.erase(event.job_id);  // a finished job leaves only its wait
}

void SimSummary::end_run(Run& run, std::int64_t at_ms) {
  if (run.running_ms >= 0) {
    auto node = m_nodes.find(run.node_id);
    if (node != m_nodes.end())
      m_busy_gpu_ms[node->second->pool] += static_cast<double>(at_ms - run.running_ms) * std::max(run.gpus, 1);
  }
  run.running_ms = -1;
}

void SimSummary::add_job(const model::Job& job) {
  ++m_jobs;
  ++m_statuses[std::string(model::to_string(job.status))];
  if (job.failure) ++m_failures[job.failure->code];
  m_cost += job.actual_cost_usd.value_or(0);
}

Json SimSummary::to_json() const {
  double span_ms = static_cast<double>(std::max<std::int64_t>(m_end_ms - m_start_ms, 0));
  Json waits = Json::object();
  for (auto [label, values] : m_waits) {
    std::sort(values.begin(), values.end());
    waits[label] = {{"jobs", values.size()},
                    {"p50", round3(percentile(values, 50))},
                    {"p95", round3(percentile(values, 95))},
                    {"p99", round3(percentile(values, 99))}};
  }
  std::map<std::string, long long> pool_gpus;
  for (const auto& node : m_fleet.nodes) pool_gpus[node.pool] += node.gpu_count;
  Json pools = Json::object();
  for (const auto& [pool, gpus] : pool_gpus) {
    auto it = m_busy_gpu_ms.find(pool);
    double busy = it == m_busy_gpu_ms.end() ? 0 : it->second;
    double capacity = span_ms * static_cast<double>(gpus);
    pools[pool] = {{"gpus", gpus},
                   {"busy_gpu_hours", round3(busy / 3'600'000.0)},
                   {"utilisation", capacity > 0 ? round3(busy / capacity) : 0.0}};
  }
  return Json{{"jobs", m_jobs},
              {"by_status", m_statuses},
              {"failure_codes", m_failures},
              {"retries", m_retries},
              {"queue_wait_s", waits},
              {"gpu_utilisation", pools},
              {"cost_usd", std::round(m_cost * 100.0) / 100.0},
              {"simulated_seconds", round3(span_ms / 1000.0)}};
}

std::string summary_text(const Json& s) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(1);
  out << "jobs        " << s["jobs"].get<long long>() << " over " << s["simulated_seconds"].get<double>()
      << " simulated seconds\n";
  out << "status     ";
  for (const auto& [status, count] : s["by_status"].items()) out << " " << status << "=" << count.get<long long>();
  out << "\n";
  if (!s["failure_codes"].empty()) {
    out << "failures   ";
    for (const auto& [code, count] : s["failure_codes"].items()) out << " " << code << "=" << count.get<long long>();
    out << "\n";
  }
  out << "retries     " << s.value("retries", 0LL) << "\n";
  out << "queue wait  (seconds, per GPU)\n";
  for (const auto& [label, w] : s["queue_wait_s"].items())
    out << "  " << std::left << std::setw(28) << label << std::right << " jobs " << std::setw(7)
        << w["jobs"].get<long long>() << "  p50 " << w["p50"].get<double>() << "  p95 " << w["p95"].get<double>()
        << "  p99 " << w["p99"].get<double>() << "\n";
  out << "utilisation (busy GPU share per pool)\n";
  for (const auto& [pool, u] : s["gpu_utilisation"].items())
    out << "  " << std::left << std::setw(28) << pool << std::right << std::setw(6)
        << u["utilisation"].get<double>() * 100 << " %  (" << u["busy_gpu_hours"].get<double>() << " GPU h of "
        << u["gpus"].get<long long>() << " GPUs)\n";
  out << std::setprecision(2) << "cost        $" << s["cost_usd"].get<double>() << "\n";
  if (s.contains("digest")) out << "digest      " << s["digest"].get<std::string>() << "\n";
  return out.str();
}

}  // namespace jgrid::cli
