#pragma once
// Counts live streams so that streams cannot hold every worker thread: per
// job (SubscriberSlots, --max-stream-subscribers), and in all and per caller
// (StreamSlots, --max-streams and --max-streams-per-key). Thread-safe.
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

// Every Server-Sent Events stream of the server, whatever its route. A
// stream holds a worker thread for its whole life; the cap keeps the rest of
// the pool for the API calls.
class StreamSlots {
 public:
  StreamSlots(int total, int per_caller) : m_total(total), m_per_caller(per_caller) {}

  // A slot for one more stream of `caller` (its key; "" for a caller
  // without one, counted in the total only), released when the last copy of
  // the handle is destroyed. Error RATE_LIMITED (429 with Retry-After) when
  // `total` streams are live, or `per_caller` of this caller's.
  Result<std::shared_ptr<void>> acquire(const std::string& caller);
  int live() const;

 private:
  void release(const std::string& caller);

  const int m_total;
  const int m_per_caller;
  mutable std::mutex m_mutex;
  int m_live = 0;
  std::map<std::string, int> m_counts;
};

}  // namespace jgrid::api
