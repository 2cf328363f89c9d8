#include "jgrid/util/clock.hpp"

#include "jgrid/util/saturating.hpp"

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <algorithm>
#include <deque>
#include <thread>
#include <vector>

namespace jgrid::util {
namespace {

// Real time between clock reads while a real clock waits, so that a changed
// scale or a far timer is never overslept by much.
constexpr std::chrono::milliseconds k_max_wait{200};

// The seqs of the timers not run nor cancelled, one bit each, from the
// word of the oldest such seq on. Seqs are handed out in increasing order,
// so the bits behind the oldest pending one are dropped as it goes; a hash
// set of them cost as much as the heap below (one node per timer).
class PendingSeqs {
 public:
  // Precondition: seq is above every seq inserted before.
  void insert(std::uint64_t seq) {
    if (m_words.empty()) m_base = seq / 64;
    while (seq / 64 >= m_base + m_words.size()) m_words.push_back(0);
    m_words[seq / 64 - m_base] |= bit(seq);
    m_next = seq + 1;
    ++m_count;
  }
  bool erase(std::uint64_t seq) {
    if (!contains(seq)) return false;
    m_words[seq / 64 - m_base] &= ~bit(seq);
    --m_count;
    // A word no later seq can land in goes once it is empty.
    while (!m_words.empty() && m_words.front() == 0 && (m_base + 1) * 64 <= m_next) {
      m_words.pop_front();
      ++m_base;
    }
    return true;
  }
  bool contains(std::uint64_t seq) const {
    std::uint64_t word = seq / 64;
    return word >= m_base && word < m_base + m_words.size() && (m_words[word - m_base] & bit(seq)) != 0;
  }
  std::size_t size() const { return m_count; }
  void clear() {
    m_words.clear();
    m_count = 0;
  }

 private:
  static std::uint64_t bit(std::uint64_t seq) { return std::uint64_t{1} << (seq % 64); }
  std::deque<std::uint64_t> m_words;
  std::uint64_t m_base = 0;  // word index of m_words.front()
  std::uint64_t m_next = 0;  // above every seq inserted
  std::size_t m_count = 0;
};

// Pending timers in (due time, order of scheduling) order: FIFO among equal
// due times. A simulation keeps a few hundred thousand timers pending (a
// delay timer per queued job, a stage timer per run), so the heap is laid
// out for the cache: four children per node (half the depth of a binary
// heap) and small entries that name their callback's slot, the callbacks
// staying put in a slab. A cancelled timer leaves the pending set at once
// and the heap when it reaches the top (or at a compaction, so that
// cancelled timers never outnumber pending ones for long).
using TimerKey = std::pair<std::int64_t, std::uint64_t>;

class TimerQueue {
 public:
  void push(TimerKey key, std::function<void()> fn) {
    std::uint32_t slot = take_slot(std::move(fn));
    m_heap.push_back(Entry{key.first, key.second, slot});
    sift_up(m_heap.size() - 1);
    m_pending.insert(key.second);
  }
  // True when the timer was pending (it is dropped).
  bool cancel(TimerKey key) {
    if (!m_pending.erase(key.second)) return false;
    if (m_heap.size() > 1024 && m_heap.size() > 2 * m_pending.size()) compact();
    return true;
  }
  bool empty() const { return m_pending.size() == 0; }
  std::size_t size() const { return m_pending.size(); }
  // Precondition: !empty().
  TimerKey first() {
    drop_cancelled();
    return {m_heap.front().due, m_heap.front().seq};
  }
  // Takes the first pending timer out. Precondition: !empty().
  std::function<void()> pop() {
    drop_cancelled();
    Entry top = pop_top();
    m_pending.erase(top.seq);
    return release_slot(top.slot);
  }
  void clear() {
    m_heap.clear();
    m_slots.clear();
    m_free_slots.clear();
    m_pending.clear();
  }

 private:
  static constexpr std::size_t k_arity = 4;
  struct Entry {
    std::int64_t due;
    std::uint64_t seq;
    std::uint32_t slot;  // in m_slots
    bool before(const Entry& other) const { return due != other.due ? due < other.due : seq < other.seq; }
  };

  std::uint32_t take_slot(std::function<void()> fn) {
    if (m_free_slots.empty()) {
      m_slots.push_back(std::move(fn));
      return static_cast<std::uint32_t>(m_slots.size() - 1);
    }
    std::uint32_t slot = m_free_slots.back();
    m_free_slots.pop_back();
    m_slots[slot] = std::move(fn);
    return slot;
  }
  std::function<void()> release_slot(std::uint32_t slot) {
    std::function<void()> fn = std::move(m_slots[slot]);
    m_slots[slot] = nullptr;
    m_free_slots.push_back(slot);
    return fn;
  }
  Entry pop_top() {
    Entry top = m_heap.front();
    m_heap.front() = m_heap.back();
    m_heap.pop_back();
    if (!m_heap.empty()) sift_down(0);
    return top;
  }
  void sift_up(std::size_t at) {
    Entry moving = m_heap[at];
    while (at > 0) {
      std::size_t parent = (at - 1) / k_arity;
      if (!moving.before(m_heap[parent])) break;
      m_heap[at] = m_heap[parent];
      at = parent;
    }
    m_heap[at] = moving;
  }
  void sift_down(std::size_t at) {
    Entry moving = m_heap[at];
    const std::size_t size = m_heap.size();
    for (;;) {
      std::size_t first_child = at * k_arity + 1;
      if (first_child >= size) break;
      std::size_t best = first_child;
      for (std::size_t child = first_child + 1; child < std::min(first_child + k_arity, size); ++child)
        if (m_heap[child].before(m_heap[best])) best = child;
      if (!m_heap[best].before(moving)) break;
      m_heap[at] = m_heap[best];
      at = best;
    }
    m_heap[at] = moving;
  }
  void drop_cancelled() {
    while (!m_heap.empty() && !m_pending.contains(m_heap.front().seq)) release_slot(pop_top().slot);
  }
  void compact() {
    std::size_t kept = 0;
    for (const Entry& entry : m_heap) {
      if (m_pending.contains(entry.seq))
        m_heap[kept++] = entry;
      else
        release_slot(entry.slot);
    }
    m_heap.resize(kept);
    for (std::size_t at = m_heap.size() / k_arity + 1; at-- > 0;)
      if (at < m_heap.size()) sift_down(at);
  }

  std::vector<Entry> m_heap;
  std::vector<std::function<void()>> m_slots;  // callbacks by slot; empty when free
  std::vector<std::uint32_t> m_free_slots;
  PendingSeqs m_pending;
};

class RealClock final : public Clock {
 public:
  explicit RealClock(double scale) : m_scale(scale), m_origin(wall_now_ms()) {}
  ~RealClock() override { stop_timers(); }
  std::int64_t now_ms() const override {
    auto elapsed = static_cast<double>(wall_now_ms() - m_origin);
    return saturating_add(m_origin, saturated_int64(std::floor(elapsed * m_scale)));
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

// Clamped in double before the conversion: a timer years ahead on a slow
// clock is more microseconds than an int64 holds.
std::chrono::microseconds real_wait(std::int64_t clock_ms, double scale) {
  if (!(scale > 0) || !std::isfinite(scale)) return k_max_wait;
  double micros = std::ceil(static_cast<double>(clock_ms) * 1000.0 / scale);
  auto limit = std::chrono::duration_cast<std::chrono::microseconds>(k_max_wait);
  if (!(micros < static_cast<double>(limit.count()))) return limit;
  return std::chrono::microseconds(static_cast<std::int64_t>(micros));
}

}  // namespace

struct Clock::Timers {
  mutable std::mutex mutex;
  std::condition_variable wake;         // the timer thread waits on it
  mutable std::condition_variable idle;  // wait_idle() waits on it
  TimerQueue queue;
  std::uint64_t next_seq = 0;
  int held = 0;          // hold() minus release(), plus 1 while a callback runs
  bool stopping = false;
  bool in_callback = false;
  std::uint64_t callbacks_run = 0;
  std::thread thread;

  bool is_idle() const { return queue.empty() && held == 0; }
};

Clock::Clock() : m_timers(std::make_unique<Timers>()) {}

Clock::~Clock() { stop_timers(); }

Clock::TimerId Clock::schedule(std::int64_t due_ms, std::function<void()> fn) {
  std::lock_guard lock(m_timers->mutex);
  TimerId id{due_ms, m_timers->next_seq++};
  if (m_timers->stopping) return id;
  bool was_first = m_timers->queue.empty() || TimerKey{id.due_ms, id.seq} < m_timers->queue.first();
  m_timers->queue.push(TimerKey{id.due_ms, id.seq}, std::move(fn));
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
        std::int64_t due = t.queue.first().first;
        std::int64_t ahead = saturating_sub(due, now_ms());
        if (ahead > 0 && !is_virtual()) {
          t.wake.wait_for(lock, real_wait(ahead, scale()));
          continue;
        }
        if (ahead > 0) jump_to(due);
        auto fn = t.queue.pop();
        ++t.held;
        t.in_callback = true;
        lock.unlock();
        fn();
        lock.lock();
        t.in_callback = false;
        ++t.callbacks_run;
        if (--t.held == 0 && t.queue.empty()) t.idle.notify_all();
      }
    });
  }
  // Only a new first timer changes what the thread waits for.
  if (was_first) m_timers->wake.notify_one();
  return id;
}

// The thread may be waiting for the dropped timer (the first), and
// wait_idle() callers for the last one.
bool Clock::cancel(const TimerId& timer) {
  std::lock_guard lock(m_timers->mutex);
  TimerKey key{timer.due_ms, timer.seq};
  bool first = !m_timers->queue.empty() && m_timers->queue.first() == key;
  if (!m_timers->queue.cancel(key)) return false;
  if (first) m_timers->wake.notify_one();
  if (m_timers->is_idle()) m_timers->idle.notify_all();
  return true;
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
  if (ms > 0) jump_to(saturating_add(now_ms(), ms));
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

Clock::Rest Clock::rest() const {
  std::lock_guard lock(m_timers->mutex);
  const Timers& t = *m_timers;
  return Rest{t.in_callback, t.queue.size(), t.held - (t.in_callback ? 1 : 0), t.callbacks_run};
}

void Clock::stop_timers() {
  std::thread thread;
  {
    std::lock_guard lock(m_timers->mutex);
    m_timers->stopping = true;
    m_timers->queue.clear();
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
