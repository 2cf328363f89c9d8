#pragma once
// The queue of jobs waiting for a node: priority (high, balanced, low), then
// first in, first out. Jobs are also grouped in lanes (one lane per route
// key: jobs of a lane ask the router the same question), so a scheduling
// pass can stop looking at a lane as soon as its first job cannot be placed:
// a pass costs O(lanes + placements), not O(queued jobs).
// Not synchronised; the engine mutex guards it.
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "jgrid/engine/fleet_history.hpp"

namespace jgrid::engine {

// 0 for "high", 2 for "low", 1 for anything else.
int priority_rank(const std::string& priority);

class JobQueue {
 public:
  JobQueue() = default;
  JobQueue(JobQueue&&) = default;  // moves keep the nodes the entries point at
  JobQueue& operator=(JobQueue&&) = default;
  JobQueue(const JobQueue&) = delete;
  JobQueue& operator=(const JobQueue&) = delete;

  // What a lane visit decides: go on with the next job of the same lane,
  // leave this lane for the rest of the pass, or end the pass.
  enum class Next { same_lane, other_lanes, stop };

  // Adds `job_id` to `lane` behind every job of the same or higher priority.
  // A job already queued keeps its place.
  void push(const std::string& job_id, const std::string& priority, const std::string& lane = "");
  void remove(const std::string& job_id);
  bool contains(const std::string& job_id) const;
  std::size_t size() const;
  // Job ids in scheduling order (built from the lanes: for inspection, not
  // for a scheduling pass).
  std::vector<std::string> ordered() const;
  // Calls `visit` with the first job of each lane, in scheduling order
  // across lanes. After `same_lane` the lane's next job (if any) takes its
  // place in that order; after `other_lanes` the lane is left alone until
  // the next call. `visit` may remove the job it was given (and no other);
  // the id it receives dies with that removal. No copy of the queue is made.
  void visit_lanes(const std::function<Next(const std::string&)>& visit);
  // Tells `history` (nullptr: nobody) of every job that joins or leaves.
  void watch(FleetHistory* history) { m_history = history; }

 private:
  // (rank, arrival): unique, so no job id is copied or compared to order jobs.
  using Key = std::pair<int, std::uint64_t>;
  using Lane = std::map<Key, const std::string*>;  // the ids point at m_entries' keys
  struct Entry {
    Key key;
    std::map<std::string, Lane>::iterator lane;
  };
  std::map<std::string, Lane> m_lanes;  // by lane name; empty lanes are dropped after a visit
  std::unordered_map<std::string, Entry> m_entries;
  std::uint64_t m_next_arrival = 0;
  bool m_visiting = false;
  FleetHistory* m_history = nullptr;
};

}  // namespace jgrid::engine
