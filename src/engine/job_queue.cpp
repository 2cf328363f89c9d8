#include "job_queue.hpp"

#include <algorithm>

namespace jgrid::engine {

int priority_rank(const std::string& priority) {
  if (priority == "high") return 0;
  if (priority == "low") return 2;
  return 1;
}

void JobQueue::push(const std::string& job_id, const std::string& priority, const std::string& lane) {
  auto [entry, added] = m_entries.try_emplace(job_id);
  if (!added) return;
  const std::string* id = &entry->first;
  Key key{priority_rank(priority), m_next_arrival++};
  auto lane_it = m_lanes.try_emplace(lane).first;
  entry->second = Entry{key, lane_it};
  lane_it->second.emplace(key, id);
  if (m_history) m_history->add_queued(1);
}

void JobQueue::remove(const std::string& job_id) {
  auto it = m_entries.find(job_id);
  if (it == m_entries.end()) return;
  auto lane = it->second.lane;
  lane->second.erase(it->second.key);
  if (lane->second.empty() && !m_visiting) m_lanes.erase(lane);  // a visit holds lane pointers
  m_entries.erase(it);
  if (m_history) m_history->add_queued(-1);
}

bool JobQueue::contains(const std::string& job_id) const { return m_entries.count(job_id) > 0; }

std::size_t JobQueue::size() const { return m_entries.size(); }

std::vector<std::string> JobQueue::ordered() const {
  std::vector<std::pair<Key, const std::string*>> all;
  all.reserve(m_entries.size());
  for (const auto& [name, lane] : m_lanes) all.insert(all.end(), lane.begin(), lane.end());
  std::sort(all.begin(), all.end());
  std::vector<std::string> ids;
  ids.reserve(all.size());
  for (const auto& [key, id] : all) ids.push_back(*id);
  return ids;
}

// The lanes' first jobs sit in `heads`, ordered like the queue; a visited
// head is replaced by the next job of its lane only after `same_lane`.
void JobQueue::visit_lanes(const std::function<Next(const std::string&)>& visit) {
  std::set<std::pair<Key, Lane*>> heads;
  for (auto& [name, lane] : m_lanes)
    if (!lane.empty()) heads.emplace(lane.begin()->first, &lane);
  m_visiting = true;
  while (!heads.empty()) {
    auto [key, lane] = *heads.begin();
    heads.erase(heads.begin());
    auto at = lane->find(key);
    auto after = std::next(at);  // found before the visit may erase `key`
    bool has_next = after != lane->end();
    Key next = has_next ? after->first : Key{};
    Next decision = visit(*at->second);
    if (decision == Next::stop) break;
    if (decision == Next::same_lane && has_next && lane->count(next)) heads.emplace(next, lane);
  }
  m_visiting = false;
  std::erase_if(m_lanes, [](const auto& lane) { return lane.second.empty(); });
}

}  // namespace jgrid::engine
