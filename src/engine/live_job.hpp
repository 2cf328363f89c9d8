#pragma once
// The engine's in-memory record of a non-terminal job: the job document plus
// the counters and flags that drive its lifecycle. Guarded by the engine mutex.
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
  DelayTimers::Armed delay_timer;   // the delay threshold of the current phase, while it has not fired
};

// The live jobs by id, ordered (iteration goes in id order) and hashed: every
// executor call finds its job, and with tens of thousands of jobs queued a
// walk down a tree of string compares cost more than the call's own work.
class LiveJobs {
 public:
  using Map = std::map<std::string, LiveJob>;
  // Adds `live` under its job's id; one already there is kept and returned.
  LiveJob& add(LiveJob live) {
    auto [it, added] = m_by_id.try_emplace(live.job.id, std::move(live));
    if (added) m_index.emplace(it->first, it);
    return it->second;
  }
  LiveJob* find(std::string_view id) const {
    auto it = m_index.find(id);
    return it == m_index.end() ? nullptr : &it->second->second;
  }
  // Precondition: the job is live.
  LiveJob& at(std::string_view id) const { return m_index.at(id)->second; }
  void erase(const std::string& id) {
    auto it = m_index.find(id);
    if (it == m_index.end()) return;
    Map::iterator node = it->second;
    m_index.erase(it);  // before the key its view points at goes
    m_by_id.erase(node);
  }
  void clear() {
    m_index.clear();
    m_by_id.clear();
  }
  bool empty() const { return m_by_id.empty(); }
  std::size_t size() const { return m_by_id.size(); }
  Map::iterator begin() { return m_by_id.begin(); }
  Map::iterator end() { return m_by_id.end(); }
  Map::const_iterator begin() const { return m_by_id.begin(); }
  Map::const_iterator end() const { return m_by_id.end(); }

 private:
  Map m_by_id;
  std::unordered_map<std::string_view, Map::iterator> m_index;  // by views of m_by_id's keys
};

// Output is read for a failure diagnosis on AMD nodes only (screen::diagnose
// reads only the exit elsewhere): other runs' lines cost no scan.
inline bool reads_for_diagnosis(const LiveJob& live) {
  return live.job.placement && live.job.placement->gpu_vendor == "amd";
}

}  // namespace jgrid::engine
