#include "api/subscriber_slots.hpp"

namespace jgrid::api {

Result<std::shared_ptr<void>> SubscriberSlots::acquire(const std::string& job_id) {
  {
    std::lock_guard lock(m_mutex);
    int& count = m_counts[job_id];
    if (count >= m_per_job)
      return make_error("RATE_LIMITED",
                        "job " + job_id + " already has " + std::to_string(count) +
                            " live log subscribers, the limit (--max-stream-subscribers); retry later",
                        {{"limit", m_per_job}, {"retry_after_seconds", 5}});
    ++count;
  }
  return std::shared_ptr<void>(nullptr, [this, job_id](void*) { release(job_id); });
}

void SubscriberSlots::release(const std::string& job_id) {
  std::lock_guard lock(m_mutex);
  auto it = m_counts.find(job_id);
  if (it != m_counts.end() && --it->second <= 0) m_counts.erase(it);
}

Result<std::shared_ptr<void>> StreamSlots::acquire(const std::string& caller) {
  {
    std::lock_guard lock(m_mutex);
    if (m_live >= m_total)
      return make_error("RATE_LIMITED",
                        "the server already serves " + std::to_string(m_live) +
                            " live streams, its limit (--max-streams); retry later",
                        {{"limit", m_total}, {"retry_after_seconds", 5}});
    int& count = m_counts[caller];
    if (!caller.empty() && count >= m_per_caller)
      return make_error("RATE_LIMITED",
                        "this caller already has " + std::to_string(count) +
                            " live streams, the limit per key (--max-streams-per-key); close one or retry later",
                        {{"limit", m_per_caller}, {"retry_after_seconds", 5}});
    ++count;
    ++m_live;
  }
  return std::shared_ptr<void>(nullptr, [this, caller](void*) { release(caller); });
}

void StreamSlots::release(const std::string& caller) {
  std::lock_guard lock(m_mutex);
  --m_live;
  auto it = m_counts.find(caller);
  if (it != m_counts.end() && --it->second <= 0) m_counts.erase(it);
}

int StreamSlots::live() const {
  std::lock_guard lock(m_mutex);
  return m_live;
}

}  // namespace jgrid::api
