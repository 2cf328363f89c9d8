#include "jgrid/util/clock.hpp"

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

namespace jgrid::util {
namespace {

// Real time between clock reads while a real clock waits, so that a changed
// scale or a far timer is never overslept by much.
constexpr std::chrono::milliseconds k_max_wait{200};

struct Timer {
  std::int64_t due_ms = 0;
  std::uint64_t seq = 0;  // FIFO among equal due times
  std::function<void()> fn;
  bool operator>(const Timer& other) const { return due_ms != other.due_ms ? due_ms > other.due_ms : seq > other.seq; }
};

class RealClock final : public Clock {
 public:
  explicit RealClock(double scale) : m_scale(scale), m_origin(wall_now_ms()) {}
  ~RealClock() override { stop_timers(); }
  std::int64_t now_ms() const override {
    auto elapsed = static_cast<double>(wall_now_ms() - m_origin);
    return m_origin + static_cast<std::int64_t>(elapsed * m_scale);
  }
  double scale() const override { return m_scale; }

 private:
  double m_scale;
  std::int64_t m_origin;
};

class VirtualClock final : public Clock {
 public:
  explicit VirtualClock(std::int64_t origin) : m_now(origin) {}
  ~VirtualClock() override { stop_timers(); }
  std::int64_t now_ms() const override { return m_now.load(); }
  double scale() const override { return 0; }
  bool is_virtual() const override { return true; }

 protected:
  void jump_to(std::int64_t ms) override {
    if (ms > m_now.load()) m_now.store(ms);
  }

 private:
  std::atomic<std::int64_t> m_now;
};

std::chrono::microseconds real_wait(std::int64_t clock_ms, double scale) {
  if (!(scale > 0) || !std::isfinite(scale)) return k_max_wait;
  auto micros = std::chrono::microseconds(static_cast<std::int64_t>(std::ceil(clock_ms * 1000.0 / scale)));
  return std::min<std::chrono::microseconds>(micros, k_max_wait);
}

}  // namespace

struct Clock::Timers {
  mutable std::mutex mutex;
  std::condition_variable wake;         // the timer thread waits on it
  mutable std::condition_variable idle;  // wait_idle() waits on it
  std::priority_queue<Timer, std::vector<Timer>, std::greater<>> queue;
  std::uint64_t next_seq = 0;
  int held = 0;          // hold() minus release(), plus 1 while a callback runs
  bool stopping = false;
  std::thread thread;

  bool is_idle() const { return queue.empty() && held == 0; }
};

Clock::Clock() : m_timers(std::make_unique<Timers>()) {}

Clock::~Clock() { stop_timers(); }

void Clock::schedule(std::int64_t due_ms, std::function<void()> fn) {
  std::lock_guard lock(m_timers->mutex);
  if (m_timers->stopping) return;
  m_timers->queue.push(Timer{due_ms, m_timers->next_seq++, std::move(fn)});
  if (!m_timers->thread.joinable()) {
    m_timers->thread = std::thread([this] {
      pthread_setname_np(pthread_self(), "clock timers");
      std::unique_lock lock(m_timers->mutex);
      Timers& t = *m_timers;
      while (!t.stopping) {
        if (t.queue.empty() || (is_virtual() && t.held > 0)) {
          t.wake.wait(lock);
          continue;
        }
        std::int64_t ahead = t.queue.top().due_ms - now_ms();
        if (ahead > 0 && !is_virtual()) {
          t.wake.wait_for(lock, real_wait(ahead, scale()));
          continue;
        }
        if (ahead > 0) jump_to(t.queue.top().due_ms);
        auto fn = std::move(const_cast<Timer&>(t.queue.top()).fn);
        t.queue.pop();
        ++t.held;
        lock.unlock();
        fn();
        lock.lock();
        if (--t.held == 0 && t.queue.empty()) t.idle.notify_all();
      }
    });
  }
  m_timers->wake.notify_one();
}

void Clock::hold() {
  std::lock_guard lock(m_timers->mutex);
  ++m_timers->held;
}

void Clock::release() {
  std::lock_guard lock(m_timers->mutex);
  if (--m_timers->held > 0) return;
  m_timers->wake.notify_one();
  if (m_timers->queue.empty()) m_timers->idle.notify_all();
}

void Clock::advance(std::int64_t ms) {
  std::lock_guard lock(m_timers->mutex);
  if (ms > 0) jump_to(now_ms() + ms);
  m_timers->wake.notify_one();
}

std::size_t Clock::pending_timers() const {
  std::lock_guard lock(m_timers->mutex);
  return m_timers->queue.size();
}

void Clock::wait_idle() const {
  std::unique_lock lock(m_timers->mutex);
  m_timers->idle.wait(lock, [&] { return m_timers->is_idle() || m_timers->stopping; });
}

void Clock::stop_timers() {
  std::thread thread;
  {
    std::lock_guard lock(m_timers->mutex);
    m_timers->stopping = true;
    m_timers->queue = {};
    thread = std::move(m_timers->thread);
  }
  m_timers->wake.notify_all();
  m_timers->idle.notify_all();
  if (thread.joinable() && thread.get_id() != std::this_thread::get_id()) thread.join();
  else if (thread.joinable()) thread.detach();
}

std::int64_t wall_now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

std::shared_ptr<Clock> make_real_clock(double scale) { return std::make_shared<RealClock>(scale); }

std::shared_ptr<Clock> make_virtual_clock(std::int64_t origin_ms) { return std::make_shared<VirtualClock>(origin_ms); }

}  // namespace jgrid::util
