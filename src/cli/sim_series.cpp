#include "sim_series.hpp"

#include <algorithm>

namespace jgrid::cli {
namespace {

bool is_terminal(const std::string& type) {
  return type == "job.completed" || type == "job.failed" || type == "job.cancelled" || type == "job.rejected";
}

}  // namespace

SimSeries::SimSeries(const exec::Fleet& fleet, std::size_t max_samples, std::int64_t interval_ms)
    : m_max_samples(std::max<std::size_t>(max_samples, 2)), m_interval_ms(std::max<std::int64_t>(interval_ms, 1)) {
  for (const auto& node : fleet.nodes) {
    m_nodes[node.id] = &node;
    if (m_pool_index.emplace(node.pool, m_pools.size()).second) m_pools.push_back(node.pool);
  }
  m_running.assign(m_pools.size(), 0);
  m_running_samples.assign(m_pools.size(), {});
}

void SimSeries::begin(std::int64_t start_ms) {
  m_start_ms = start_ms;
  m_next_ms = start_ms;
}

// A job is followed from its job.submitted event to its terminal one and then
// forgotten, so memory follows the jobs in flight, not the finished ones; a
// later event of a finished job (a callback delivery) changes nothing.
void SimSeries::add_event(const model::Event& event) {
  sample_until(event.created_ms);
  if (event.job_id.empty()) return;  // node events
  const std::string& type = event.type;
  const bool submitted = type == "job.submitted";
  auto it = submitted ? m_jobs.try_emplace(event.job_id).first : m_jobs.find(event.job_id);
  if (it == m_jobs.end()) return;
  Job& job = it->second;
  if (submitted || type == "job.retrying") enqueue(job);
  if (type == "job.assigned") {
    if (job.queued) --m_queued;
    job.queued = false;
    auto node = m_nodes.find(event.data.value("node_id", ""));
    job.pool = node == m_nodes.end() ? m_pools.size() : m_pool_index[node->second->pool];
    job.gpus = std::max<int>(static_cast<int>(event.data.value("gpu_indices", nlohmann::json::array()).size()), 1);
  }
  if (type == "job.running" && job.pool < m_pools.size() && !job.running) {
    job.running = true;
    m_running[job.pool] += job.gpus;
  }
  if (is_terminal(type)) {
    stop_running(job);
    if (job.queued) --m_queued;
    m_jobs.erase(it);
  }
}

void SimSeries::enqueue(Job& job) {
  stop_running(job);
  if (!job.queued) ++m_queued;
  job.queued = true;
}

void SimSeries::stop_running(Job& job) {
  if (job.running) m_running[job.pool] -= job.gpus;
  job.running = false;
}

void SimSeries::end(std::int64_t end_ms) {
  sample_until(end_ms);
  take_sample(end_ms);
  m_jobs.clear();
}

void SimSeries::sample_until(std::int64_t at_ms) {
  while (m_next_ms < at_ms) {
    take_sample(m_next_ms);
    m_next_ms += m_interval_ms;
    if (m_t_ms.size() >= m_max_samples) halve();
  }
}

void SimSeries::take_sample(std::int64_t at_ms) {
  m_t_ms.push_back(at_ms - m_start_ms);
  m_queued_samples.push_back(m_queued);
  for (std::size_t p = 0; p < m_pools.size(); ++p) m_running_samples[p].push_back(m_running[p]);
}

// Keeps the samples at even multiples of the interval, which doubles.
void SimSeries::halve() {
  auto keep_even = [](auto& values) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < values.size(); i += 2) values[kept++] = values[i];
    values.resize(kept);
  };
  keep_even(m_t_ms);
  keep_even(m_queued_samples);
  for (auto& pool : m_running_samples) keep_even(pool);
  m_interval_ms *= 2;
  m_next_ms = m_start_ms + m_t_ms.back() + m_interval_ms;
}

nlohmann::json SimSeries::to_json() const {
  nlohmann::json t = nlohmann::json::array(), running = nlohmann::json::object();
  for (auto ms : m_t_ms) t.push_back(static_cast<double>(ms) / 1000.0);
  for (std::size_t p = 0; p < m_pools.size(); ++p) running[m_pools[p]] = m_running_samples[p];
  return {{"interval_s", static_cast<double>(m_interval_ms) / 1000.0},
          {"t_s", t},
          {"queued", m_queued_samples},
          {"running_gpus", running}};
}

}  // namespace jgrid::cli
