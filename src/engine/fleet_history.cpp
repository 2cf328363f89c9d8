#include "jgrid/engine/fleet_history.hpp"

#include <algorithm>

namespace jgrid::engine {
namespace {

const std::string& pool_name(const model::Node& node) { return node.pool.empty() ? node.name : node.pool; }

std::int64_t align_up(std::int64_t ms, std::int64_t interval) {
  std::int64_t down = ms / interval * interval;
  if (down > ms) down -= interval;  // negative times round towards zero
  return down == ms ? ms : down + interval;
}

}  // namespace

FleetHistory::FleetHistory(const util::Clock& clock, const std::vector<model::Node>& nodes, std::int64_t interval_ms,
                           std::size_t capacity)
    : m_clock(clock), m_interval_ms(std::max<std::int64_t>(interval_ms, 1)), m_capacity(std::max<std::size_t>(capacity, 1)) {
  for (const auto& node : nodes)
    if (m_pool_index.emplace(pool_name(node), m_pools.size()).second) m_pools.push_back(pool_name(node));
  m_level.running.assign(m_pools.size(), 0);
  m_level.total.assign(m_pools.size(), 0);
  for (const auto& node : nodes)
    if (node.status != model::NodeStatus::offline) m_level.total[pool_of(node)] += std::max(node.gpu_count, 0);
  m_next_ms = align_up(m_clock.now_ms(), m_interval_ms);
}

std::size_t FleetHistory::pool_of(const model::Node& node) const {
  auto it = m_pool_index.find(pool_name(node));
  return it == m_pool_index.end() ? m_pools.size() : it->second;
}

void FleetHistory::add_queued(std::int64_t delta) {
  catch_up(m_clock.now_ms());
  m_level.queued += delta;
}

void FleetHistory::add_running(const model::Node& node, std::int64_t delta) {
  std::size_t pool = pool_of(node);
  if (pool == m_pools.size() || delta == 0) return;
  catch_up(m_clock.now_ms());
  m_level.running[pool] += delta;
}

void FleetHistory::add_total(const model::Node& node, std::int64_t delta) {
  std::size_t pool = pool_of(node);
  if (pool == m_pools.size() || delta == 0) return;
  catch_up(m_clock.now_ms());
  m_level.total[pool] += delta;
}

// Grid times before now get the level that held until now. After a long
// quiet spell only the last `capacity` of them can survive, so the rest are
// skipped.
void FleetHistory::catch_up(std::int64_t now_ms) {
  if (m_next_ms >= now_ms) return;
  auto due = static_cast<std::size_t>((now_ms - 1 - m_next_ms) / m_interval_ms) + 1;
  if (due > m_capacity) m_next_ms += static_cast<std::int64_t>(due - m_capacity) * m_interval_ms;
  for (; m_next_ms < now_ms; m_next_ms += m_interval_ms) store(m_next_ms, m_level);
}

void FleetHistory::store(std::int64_t at_ms, const Level& level) {
  if (m_t_ms.size() < m_capacity) {
    m_t_ms.push_back(at_ms);
    m_samples.push_back(level);
    return;
  }
  m_t_ms[m_head] = at_ms;
  m_samples[m_head] = level;
  m_head = (m_head + 1) % m_capacity;
}

void FleetHistory::append(FleetSeries& series, std::int64_t at_ms, const Level& level) {
  series.t_ms.push_back(at_ms);
  series.queued.push_back(level.queued);
  for (std::size_t p = 0; p < series.pools.size(); ++p) {
    series.running_gpus[p].push_back(level.running[p]);
    series.total_gpus[p].push_back(level.total[p]);
  }
}

FleetSeries FleetHistory::read() const {
  FleetSeries series;
  series.interval_ms = m_interval_ms;
  series.capacity = m_capacity;
  series.now_ms = m_clock.now_ms();
  series.pools = m_pools;
  series.running_gpus.assign(m_pools.size(), {});
  series.total_gpus.assign(m_pools.size(), {});
  append_grid(series);
  if (series.t_ms.empty() || series.t_ms.back() < series.now_ms) append(series, series.now_ms, m_level);
  return series;
}

// What catch_up(now + 1) would leave in the ring: the newest `capacity` of
// the stored samples and the grid times due up to now (those at the level).
void FleetHistory::append_grid(FleetSeries& series) const {
  std::int64_t next = m_next_ms;
  std::size_t due = next > series.now_ms ? 0 : static_cast<std::size_t>((series.now_ms - next) / m_interval_ms) + 1;
  std::size_t kept = std::min(m_capacity, m_t_ms.size() + due);
  std::size_t from_store = kept > due ? kept - due : 0;
  for (std::size_t i = m_t_ms.size() - from_store; i < m_t_ms.size(); ++i) {
    std::size_t slot = (m_head + i) % m_t_ms.size();
    append(series, m_t_ms[slot], m_samples[slot]);
  }
  if (due > kept) next += static_cast<std::int64_t>(due - kept) * m_interval_ms;
  for (; next <= series.now_ms; next += m_interval_ms) append(series, next, m_level);
}

void FleetHistory::clear() {
  m_t_ms.clear();
  m_samples.clear();
  m_head = 0;
  m_next_ms = align_up(m_clock.now_ms(), m_interval_ms);
}

}  // namespace jgrid::engine
