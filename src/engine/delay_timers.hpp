#pragma once
// The clock timers of delay thresholds (docs/simulation.md §3: one clock drives every
// timer, delay thresholds included). The engine keeps at most one per live
// job in a phase before its workload, due no later than the job's current
// phase reaches the threshold (a timer from an earlier phase re-arms itself
// for the current one when it fires); entering the workload or ending
// disarms it, so a virtual clock never moves to a threshold that no job
// waits for any more.
//
// A timer that fires calls `fire(job_id, token)` unless close() ran. The
// token tells the owner whether the timer is still the job's current one
// (a timer may fire while its job is being re-armed).
//
// Thread-safe. arm() and disarm() may be called while holding locks that
// `fire` takes; close() must not be.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "jgrid/util/clock.hpp"

namespace jgrid::engine {

class DelayTimers {
 public:
  // One armed timer; token 0 means none.
  struct Armed {
    util::Clock::TimerId timer;
    std::uint64_t token = 0;
  };
  using Fire = std::function<void(const std::string& job_id, std::uint64_t token)>;

  // `clock` outlives this object.
  DelayTimers(util::Clock& clock, Fire fire);
  ~DelayTimers();
  DelayTimers(const DelayTimers&) = delete;
  DelayTimers& operator=(const DelayTimers&) = delete;

  // A timer for `job_id` at `due_ms` (at once when past), with a new token.
  Armed arm(const std::string& job_id, std::int64_t due_ms);
  // Cancels `armed` if it has not fired and resets it to none.
  void disarm(Armed& armed);
  // From its return on, no `fire` runs (one running finishes first) and
  // timers still pending do nothing. Idempotent.
  void close();

 private:
  struct Gate;
  util::Clock& m_clock;
  std::shared_ptr<Gate> m_gate;  // shared with pending timers: they may outlive this object
  std::atomic<std::uint64_t> m_last_token{0};
};

}  // namespace jgrid::engine
