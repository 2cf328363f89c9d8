#pragma once
// Time figures of the docs/api.md §3 job object, shared by the job object and the
// list item.
#include <algorithm>
#include <cstdint>

#include "jgrid/model/job.hpp"

namespace jgrid::model::api_times {

inline std::int64_t queued_at_ms(const Job& job) { return job.queued_ms > 0 ? job.queued_ms : job.created_ms; }

// Queued until it started, ended, or `now_ms` if neither yet.
inline double wait_seconds(const Job& job, std::int64_t now_ms) {
  std::int64_t end = job.started_ms ? *job.started_ms : job.completed_ms ? *job.completed_ms : now_ms;
  return std::max<std::int64_t>(0, end - queued_at_ms(job)) / 1000.0;
}

}  // namespace jgrid::model::api_times
