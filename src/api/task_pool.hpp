#pragma once
// The HTTP server's worker pool. A worker serves one request (or one
// stream, for its whole life), so a few long streams must not starve the
// rest: the pool starts with `base` threads and adds one whenever a task
// arrives while all are busy, up to `max`; tasks beyond wait in order. A
// thread above `base` that stays idle for `retire_after` ends, so the pool
// returns to its normal size after a burst.
// Thread-safe.
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <list>
#include <mutex>
#include <thread>

namespace jgrid::api {

class TaskPool {
 public:
  TaskPool(std::size_t base, std::size_t max, std::chrono::milliseconds retire_after = std::chrono::seconds(5));
  ~TaskPool();
  TaskPool(const TaskPool&) = delete;
  TaskPool& operator=(const TaskPool&) = delete;

  void enqueue(std::function<void()> task);
  // Runs what is queued, then joins every thread.
  void shutdown();
  // Threads alive now (metrics and tests).
  std::size_t threads() const;

 private:
  void spawn_locked();
  void join_retired_locked();
  void work(std::list<std::thread>::iterator self);

  const std::size_t m_base;
  const std::size_t m_max;
  const std::chrono::milliseconds m_retire_after;
  mutable std::mutex m_mutex;
  std::condition_variable m_ready;
  std::deque<std::function<void()>> m_tasks;
  std::list<std::thread> m_threads;   // live ones
  std::list<std::thread> m_retired;   // ended, not joined yet
  std::size_t m_idle = 0;
  bool m_stopping = false;
};

}  // namespace jgrid::api
