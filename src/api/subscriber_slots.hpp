#pragma once
// Counts live streams per job so one job cannot hold every worker thread
// (limit --max-stream-subscribers). Thread-safe.
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "jgrid/util/result.hpp"

namespace jgrid::api {

class SubscriberSlots {
 public:
  explicit SubscriberSlots(int per_job) : m_per_job(per_job) {}

  // A slot for one more stream of `job_id`, released when the last copy of
  // the returned handle is destroyed. Error RATE_LIMITED when `per_job`
  // streams already follow the job.
  Result<std::shared_ptr<void>> acquire(const std::string& job_id);

 private:
  void release(const std::string& job_id);

  const int m_per_job;
  std::mutex m_mutex;
  std::map<std::string, int> m_counts;
};

}  // namespace jgrid::api
