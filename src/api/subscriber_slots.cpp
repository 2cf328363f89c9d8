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

}  // namespace jgrid::api
