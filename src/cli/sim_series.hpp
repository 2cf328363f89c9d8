#pragma once
// The report's time series of one run: queued jobs and running GPUs per
// pool, sampled at fixed simulated intervals. Memory stays bounded whatever
// the trace: when the samples would pass a limit, every other one is dropped
// and the interval doubles, so a long run keeps fewer, wider-spaced samples.
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>
#include <vector>

#include "jgrid/exec/fleet.hpp"
#include "sim_run.hpp"

namespace jgrid::cli {

class SimSeries : public SimObserver {
 public:
  // `max_samples` >= 2: at most this many samples are kept (plus the last,
  // taken at the end of the run). `interval_ms` is the first spacing.
  explicit SimSeries(const exec::Fleet& fleet, std::size_t max_samples = 600, std::int64_t interval_ms = 1000);
  void begin(std::int64_t start_ms) override;
  void add_event(const model::Event& event) override;
  void end(std::int64_t end_ms) override;

  // {interval_s, t_s: [...], queued: [...], running_gpus: {pool: [...]}}:
  // t_s from the start of the run; the state at each sample time (events at
  // that very time applied), and one last sample at the end of the run.
  nlohmann::json to_json() const;
  std::size_t samples() const { return m_t_ms.size(); }
  std::size_t jobs_in_flight() const { return m_jobs.size(); }

 private:
  struct Job {
    bool queued = false, running = false;
    std::size_t pool = 0;  // index of the current run's pool
    int gpus = 0;          // of the current run
  };
  void sample_until(std::int64_t at_ms);
  void take_sample(std::int64_t at_ms);
  void halve();
  void enqueue(Job& job);
  void stop_running(Job& job);

  std::size_t m_max_samples;
  std::int64_t m_interval_ms, m_start_ms = 0, m_next_ms = 0;
  std::unordered_map<std::string, const model::Node*> m_nodes;  // by id
  std::vector<std::string> m_pools;  // fleet order
  std::map<std::string, std::size_t> m_pool_index;
  std::unordered_map<std::string, Job> m_jobs;  // jobs in flight, by id
  long long m_queued = 0;
  std::vector<long long> m_running;                   // by pool index
  std::vector<std::int64_t> m_t_ms;                   // samples, relative to start
  std::vector<long long> m_queued_samples;
  std::vector<std::vector<long long>> m_running_samples;  // [pool][sample]
};

}  // namespace jgrid::cli
