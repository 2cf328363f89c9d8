#include "job_queue.hpp"

namespace jgrid::engine {

int priority_rank(const std::string& priority) {
  if (priority == "high") return 0;
  if (priority == "low") return 2;
  return 1;
}

void JobQueue::push(const std::string& job_id, const std::string& priority, const std::string& lane) {
  if (m_entries.count(job_id)) return;
  Key key{priority_rank(priority), m_next_arrival++, job_id};
  m_order.insert(key);
  m_lanes[lane].insert(key);
  m_entries.emplace(job_id, Entry{key, lane});
  if (m_history) m_history->add_queued(1);
}

void JobQueue::remove(const std::string& job_id) {
  auto it = m_entries.find(job_id);
  if (it == m_entries.end()) return;
  m_order.erase(it->second.key);
  auto lane = m_lanes.find(it->second.lane);
  lane->second.erase(it->second.key);
  if (lane->second.empty() && !m_visiting) m_lanes.erase(lane);  // a visit holds lane pointers
  m_entries.erase(it);
  if (m_history) m_history->add_queued(-1);
}

bool JobQueue::contains(const std::string& job_id) const { return m_entries.count(job_id) > 0; }

std::size_t JobQueue::size() const { return m_entries.size(); }

std::vector<std::string> JobQueue::ordered() const {
  std::vector<std::string> ids;
  ids.reserve(m_order.size());
  for (const auto& key : m_order) ids.push_back(std::get<2>(key));
  return ids;
}

// The lanes' first jobs sit in `heads`, ordered like the queue; a visited
// head is replaced by the next job of its lane only after `same_lane`.
void JobQueue::visit_lanes(const std::function<Next(const std::string&)>& visit) {
  std::set<std::pair<Key, std::set<Key>*>> heads;
  for (auto& [name, keys] : m_lanes)
    if (!keys.empty()) heads.emplace(*keys.begin(), &keys);
  m_visiting = true;
  while (!heads.empty()) {
    auto [key, lane] = *heads.begin();
    heads.erase(heads.begin());
    auto after = lane->upper_bound(key);  // found before the visit may erase `key`
    Key next = after == lane->end() ? Key{} : *after;
    bool has_next = after != lane->end();
    Next decision = visit(std::get<2>(key));
    if (decision == Next::stop) break;
    if (decision == Next::same_lane && has_next && lane->count(next)) heads.emplace(next, lane);
  }
  m_visiting = false;
  std::erase_if(m_lanes, [](const auto& lane) { return lane.second.empty(); });
}

}  // namespace jgrid::engine
