#pragma once
// The seam between the program and time. Every timer in the engine and the
// simulated executors reads this clock and runs on it, so tests and
// virtual-time runs can control time. Thread-safe.
//
// Timers: schedule() runs a callback on the clock's one timer thread once
// the clock reads the due time, one callback at a time, in (due time, order
// of scheduling) order. On a real clock the thread sleeps (real time = clock
// time / scale). On a virtual clock time never passes by itself: when no
// work is held (hold()/release()) and no callback runs, the clock jumps to
// the next due timer. So a run on a virtual clock is a sequence of steps
// whose order depends only on what was scheduled and held, not on the
// machine's speed.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace jgrid::util {

class Clock {
 public:
  Clock();
  virtual ~Clock();
  Clock(const Clock&) = delete;
  Clock& operator=(const Clock&) = delete;

  // Milliseconds since the Unix epoch, in this clock's time.
  virtual std::int64_t now_ms() const = 0;
  // How many clock milliseconds pass per real millisecond (1.0 = wall time;
  // 0 for a virtual clock, where time does not follow real time at all).
  virtual double scale() const = 0;
  virtual bool is_virtual() const { return false; }
  // "real" or "virtual".
  std::string mode() const { return is_virtual() ? "virtual" : "real"; }

  // Names a scheduled timer for cancel(). Unique per clock.
  struct TimerId {
    std::int64_t due_ms = 0;
    std::uint64_t seq = 0;
  };

  // Runs `fn` on the timer thread at `due_ms` (or at once when past; any
  // int64 is a due time, INT64_MAX one a real clock never reaches). The
  // thread starts on first use; callbacks may schedule and cancel timers and
  // call hold()/release(), but must not call stop_timers().
  TimerId schedule(std::int64_t due_ms, std::function<void()> fn);
  // Drops a timer that has not started to run: it never runs, and a virtual
  // clock no longer moves to its due time for it. False when it already ran,
  // is running, or was dropped before.
  bool cancel(const TimerId& timer);
  // Work in progress outside the timer thread (e.g. callback deliveries):
  // a virtual clock does not move and no timer runs until it is released.
  // Every hold() needs one release(). No effect on real clocks.
  void hold();
  void release();
  // Virtual clocks: moves time `ms` forward now, at most to INT64_MAX
  // (timers due meanwhile run next, in order). Real clocks: no effect.
  void advance(std::int64_t ms);
  // Timers scheduled and not yet run nor cancelled.
  std::size_t pending_timers() const;
  // Blocks until no timer is pending, nothing is held and no callback runs.
  void wait_idle() const;
  // What a caller outside the timer thread needs to tell whether the clock
  // can still move by itself.
  struct Rest {
    bool callback_running = false;
    std::size_t pending = 0;      // timers not yet run nor cancelled
    int held = 0;                 // hold() minus release()
    std::uint64_t callbacks_run = 0;  // callbacks finished since construction
  };
  Rest rest() const;
  // Drops pending timers and joins the thread. Idempotent. Subclasses call
  // it in their destructor (the thread reads now_ms()).
  void stop_timers();

 protected:
  // Virtual clocks set their time here; called with the timer lock held.
  virtual void jump_to(std::int64_t) {}

 private:
  struct Timers;
  std::unique_ptr<Timers> m_timers;
};

// Wall time multiplied by `scale` from the moment of construction.
std::shared_ptr<Clock> make_real_clock(double scale = 1.0);

// A virtual clock starting at `origin_ms` (default 2026-01-01T00:00:00Z, so
// runs are the same every time).
inline constexpr std::int64_t k_virtual_origin_ms = 1'767'225'600'000;
std::shared_ptr<Clock> make_virtual_clock(std::int64_t origin_ms = k_virtual_origin_ms);

// Real wall-clock milliseconds since the epoch (for logs and HTTP, not timers).
std::int64_t wall_now_ms();

}  // namespace jgrid::util
