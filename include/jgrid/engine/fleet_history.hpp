#pragma once
// FleetHistory: how busy the fleet has been over the last hours, for the
// dashboard's Fleet view and GET /v1/sim/utilisation (docs/api.md §2.12).
//
// It keeps the current level of the fleet (jobs waiting in the queue; per
// pool, GPUs that placed jobs hold and GPUs of nodes that are not offline)
// and a ring of samples of that level, one at every multiple of the
// interval on the engine's clock (virtual or real). There is no timer: every
// change first records the samples that fell due since the previous change,
// each with the level that held then, so a sample at time t is the level
// after everything that happened at t or before. A quiet fleet records
// nothing until the next change or read; a read fills in the samples due
// up to now without storing them.
//
// A node belongs to the pool named in its `pool`, or to a pool of its own
// name when it has none. Pools are listed in fleet order.
//
// Not synchronised: the engine mutex guards it (the queue and the node pool
// that feed it are guarded by the same mutex).
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "jgrid/model/node.hpp"
#include "jgrid/util/clock.hpp"

namespace jgrid::engine {

inline constexpr std::int64_t k_fleet_history_interval_ms = 5000;
inline constexpr std::size_t k_fleet_history_samples = 2880;  // 4 h at 5 s

// The samples of a read, oldest first. Every vector of values has one entry
// per time in t_ms; running_gpus and total_gpus have one vector per pool.
struct FleetSeries {
  std::int64_t interval_ms = 0;
  std::size_t capacity = 0;   // most samples kept on the grid
  std::int64_t now_ms = 0;    // when it was read
  std::vector<std::string> pools;
  std::vector<std::int64_t> t_ms;      // clock ms; the last one is now_ms (see read)
  std::vector<std::int64_t> queued;
  std::vector<std::vector<std::int64_t>> running_gpus;  // [pool][sample]
  std::vector<std::vector<std::int64_t>> total_gpus;    // [pool][sample]
};

class FleetHistory {
 public:
  // Starts with every node's GPUs counted (offline nodes' not), nothing
  // queued or running, and the first sample due at the first multiple of
  // `interval_ms` at or after the clock's now. The clock must outlive this.
  FleetHistory(const util::Clock& clock, const std::vector<model::Node>& nodes,
               std::int64_t interval_ms = k_fleet_history_interval_ms,
               std::size_t capacity = k_fleet_history_samples);

  // Changes of the level, at the clock's now. Unknown pools are ignored.
  void add_queued(std::int64_t delta);
  void add_running(const model::Node& node, std::int64_t delta);
  void add_total(const model::Node& node, std::int64_t delta);

  // The samples kept (at most `capacity`, the newest), those due up to now
  // that no change has recorded yet, and one more at now itself holding the
  // current level (when now is not on the grid).
  FleetSeries read() const;
  // Forgets every sample; the level stays.
  void clear();

 private:
  struct Level {
    std::int64_t queued = 0;
    std::vector<std::int64_t> running, total;  // by pool index
  };
  std::size_t pool_of(const model::Node& node) const;  // pools size when unknown
  void catch_up(std::int64_t now_ms);
  void store(std::int64_t at_ms, const Level& level);
  static void append(FleetSeries& series, std::int64_t at_ms, const Level& level);
  void append_grid(FleetSeries& series) const;

  const util::Clock& m_clock;
  std::int64_t m_interval_ms;
  std::size_t m_capacity;
  std::vector<std::string> m_pools;
  std::unordered_map<std::string, std::size_t> m_pool_index;
  Level m_level;
  std::int64_t m_next_ms = 0;   // the next grid time without a sample
  // The ring: slot i of each vector is one sample; m_head is the oldest.
  std::vector<std::int64_t> m_t_ms;
  std::vector<Level> m_samples;
  std::size_t m_head = 0;
};

}  // namespace jgrid::engine
