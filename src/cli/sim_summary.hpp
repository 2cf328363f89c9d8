#pragma once
// The summary `jgrid-local simulate` prints: jobs by final status, queue
// wait percentiles per GPU vendor and model, GPU utilisation per pool, cost,
// simulated time and the event digest. Built from the event log and the
// final job documents; contains nothing that depends on the machine, so the
// same run prints the same summary.
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>
#include <vector>

#include "jgrid/exec/fleet.hpp"
#include "jgrid/model/event.hpp"
#include "jgrid/model/job.hpp"
#include "sim_run.hpp"

namespace jgrid::cli {

// Accumulates events in seq order, then the final jobs. The fleet must
// outlive the summary.
class SimSummary : public SimObserver {
 public:
  explicit SimSummary(const exec::Fleet& fleet);
  void begin(std::int64_t start_ms) override { m_start_ms = start_ms; }
  void add_event(const model::Event& event) override;
  void add_job(const model::Job& job) override;
  void end(std::int64_t end_ms) override { m_end_ms = end_ms; }
  // {jobs, by_status, failure_codes, retries, queue_wait_s{"AMD MI300X": {jobs, p50, p95, p99}},
  //  gpu_utilisation{pool: {gpus, busy_gpu_hours, utilisation}}, cost_usd, simulated_seconds}
  // `retries` counts job.retrying events (runs cut short and requeued).
  nlohmann::json to_json() const;
  // The queue waits in seconds by "AMD MI300X", in event order.
  const std::map<std::string, std::vector<double>>& waits() const { return m_waits; }

 private:
  struct Run {
    std::int64_t submitted_ms = -1, assigned_ms = -1, running_ms = -1;
    std::string node_id;
    int gpus = 0;
  };
  void end_run(Run& run, std::int64_t at_ms);

  const exec::Fleet& m_fleet;
  std::int64_t m_start_ms = 0, m_end_ms = 0;
  std::unordered_map<std::string, const model::Node*> m_nodes;  // by id
  std::unordered_map<std::string, Run> m_runs;  // by job id
  std::map<std::string, std::vector<double>> m_waits;    // by "AMD MI300X"
  std::map<std::string, double> m_busy_gpu_ms;           // by pool
  std::map<std::string, long long> m_statuses, m_failures;
  long long m_jobs = 0, m_retries = 0;
  double m_cost = 0;
};

// The human form of to_json().
std::string summary_text(const nlohmann::json& summary);

}  // namespace jgrid::cli
