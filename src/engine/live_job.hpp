#pragma once
// The engine's in-memory record of a non-terminal job: the job document plus
// the counters and flags that drive its lifecycle. Guarded by the engine mutex.
#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "jgrid/model/job.hpp"
#include "delay_timers.hpp"
#include "jgrid/screen/diagnose.hpp"
#include "jgrid/screen/screen.hpp"

namespace jgrid::engine {

struct LiveJob {
  model::Job job;
  screen::Intent intent;            // from screening at submit (or at adoption after a restart)
  std::string route_key;            // route::route_key(spec, intent): from the submit, else when first queued
  std::int64_t event_sequence = 0;  // last per-job event sequence used
  std::int64_t log_sequence = 0;    // last per-job log sequence used
  std::int64_t log_bytes = 0;       // workload output kept so far
  std::int64_t dropped_lines = 0;   // output lines dropped past max_log_bytes
  bool capacity_waiting = false;    // job.capacity_waiting emitted for the current wait
  bool launched = false;            // handed to an executor (start() called or about to be)
  bool cancelling = false;          // cancel() owns it: executor calls are ignored
  bool tails_dirty = false;         // tails changed since the job doc was last written
  bool holds_gpus = false;          // its placement's GPUs are reserved in the node pool
  bool awaiting_image = false;      // queued but out of the queue until its image's lookup ends (screened again then)
  std::int64_t ordinal = 0;         // order of the job's first event (event digest)
  int bypassed = 0;                 // later jobs placed on nodes this one waits for
  std::vector<std::uint32_t> fitting_classes;  // node classes it could use once GPUs free up (sorted)
  screen::OutputScan output_scan;   // the first line of each failure diagnosis code in its kept output
  DelayTimers::Armed delay_timer;   // pending delay timer, due no later than the current phase's threshold
};

// The live jobs by id, hashed: every executor call finds its job, and with
// tens of thousands of jobs queued a tree of string compares cost more than
// the call's own work. Walks go in no particular order; a walk whose order
// shows (events it makes) takes in_id_order().
class LiveJobs {
 public:
  struct IdHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view id) const { return std::hash<std::string_view>{}(id); }
  };
  using Map = std::unordered_map<std::string, LiveJob, IdHash, std::equal_to<>>;
  // Adds `live` under its job's id; one already there is kept and returned.
  LiveJob& add(LiveJob live) {
    std::string id = live.job.id;
    return m_by_id.try_emplace(std::move(id), std::move(live)).first->second;
  }
  LiveJob* find(std::string_view id) {
    auto it = m_by_id.find(id);
    return it == m_by_id.end() ? nullptr : &it->second;
  }
  // Precondition: the job is live.
  LiveJob& at(std::string_view id) { return m_by_id.find(id)->second; }
  void erase(std::string_view id) {
    if (auto it = m_by_id.find(id); it != m_by_id.end()) m_by_id.erase(it);
  }
  void clear() { m_by_id.clear(); }
  bool empty() const { return m_by_id.empty(); }
  std::size_t size() const { return m_by_id.size(); }
  Map::iterator begin() { return m_by_id.begin(); }
  Map::iterator end() { return m_by_id.end(); }
  Map::const_iterator begin() const { return m_by_id.begin(); }
  Map::const_iterator end() const { return m_by_id.end(); }
  // The live jobs that `keep` accepts, in job id order (only those are sorted).
  template <class Keep>
  std::vector<LiveJob*> in_id_order(Keep keep) {
    std::vector<LiveJob*> jobs;
    for (auto& [id, live] : m_by_id)
      if (keep(live)) jobs.push_back(&live);
    std::sort(jobs.begin(), jobs.end(), [](const LiveJob* a, const LiveJob* b) { return a->job.id < b->job.id; });
    return jobs;
  }
  std::vector<LiveJob*> in_id_order() {
    return in_id_order([](const LiveJob&) { return true; });
  }

 private:
  Map m_by_id;
};

// Output is read for a failure diagnosis on AMD nodes only (screen::diagnose
// reads only the exit elsewhere): other runs' lines cost no scan.
inline bool reads_for_diagnosis(const LiveJob& live) {
  return live.job.placement && live.job.placement->gpu_vendor == "amd";
}

}  // namespace jgrid::engine
