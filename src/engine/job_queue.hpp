#pragma once
// The queue of jobs waiting for a node: priority (high, balanced, low), then
// first in, first out. Not synchronised; the engine mutex guards it.
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace jgrid::engine {

// 0 for "high", 2 for "low", 1 for anything else.
int priority_rank(const std::string& priority);

class JobQueue {
 public:
  // Adds `job_id` behind every job of the same or higher priority. A job
  // already queued keeps its place.
  void push(const std::string& job_id, const std::string& priority);
  void remove(const std::string& job_id);
  bool contains(const std::string& job_id) const;
  std::size_t size() const;
  // Job ids in scheduling order.
  std::vector<std::string> ordered() const;
  // Calls `visit` with each queued job id in scheduling order until it
  // returns false. `visit` may remove the job it was given (and no other);
  // the id it receives dies with that removal. No copy of the queue is made.
  void visit(const std::function<bool(const std::string&)>& visit);

 private:
  using Key = std::tuple<int, std::uint64_t, std::string>;  // rank, arrival, id
  std::set<Key> m_order;
  std::map<std::string, Key> m_keys;
  std::uint64_t m_next_arrival = 0;
};

}  // namespace jgrid::engine
