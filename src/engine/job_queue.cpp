#include "job_queue.hpp"

namespace jgrid::engine {

int priority_rank(const std::string& priority) {
  if (priority == "high") return 0;
  if (priority == "low") return 2;
  return 1;
}

void JobQueue::push(const std::string& job_id, const std::string& priority) {
  if (m_keys.count(job_id)) return;
  Key key{priority_rank(priority), m_next_arrival++, job_id};
  m_order.insert(key);
  m_keys.emplace(job_id, key);
}

void JobQueue::remove(const std::string& job_id) {
  auto it = m_keys.find(job_id);
  if (it == m_keys.end()) return;
  m_order.erase(it->second);
  m_keys.erase(it);
}

bool JobQueue::contains(const std::string& job_id) const { return m_keys.count(job_id) > 0; }

std::size_t JobQueue::size() const { return m_keys.size(); }

std::vector<std::string> JobQueue::ordered() const {
  std::vector<std::string> ids;
  ids.reserve(m_order.size());
  for (const auto& key : m_order) ids.push_back(std::get<2>(key));
  return ids;
}

void JobQueue::visit(const std::function<bool(const std::string&)>& visit) {
  for (auto it = m_order.begin(); it != m_order.end();) {
    auto current = it++;  // the visit may erase `current`
    if (!visit(std::get<2>(*current))) return;
  }
}

}  // namespace jgrid::engine
