#pragma once
// The seam between the program and time. Every timer in the engine and the
// simulated executors reads this clock, so tests and virtual-time runs can
// control it. Thread-safe.
#include <cstdint>
#include <memory>

namespace jgrid::util {

class Clock {
 public:
  virtual ~Clock() = default;
  // Milliseconds since the Unix epoch, in this clock's time.
  virtual std::int64_t now_ms() const = 0;
  // How many clock milliseconds pass per real millisecond (1.0 = wall time).
  virtual double scale() const = 0;
};

// Wall time multiplied by `scale` from the moment of construction.
std::shared_ptr<Clock> make_real_clock(double scale = 1.0);

// Real wall-clock milliseconds since the epoch (for logs and HTTP, not timers).
std::int64_t wall_now_ms();

}  // namespace jgrid::util
