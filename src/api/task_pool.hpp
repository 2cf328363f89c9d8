#pragma once
// The HTTP server's worker pool. The library runs one connection per task
// for its whole life, so a long-lived SSE stream holds a thread: a fixed pool
// would let a few dozen followers starve every other request. This pool
// starts with `base` threads and adds one whenever a task arrives while all
// are busy, up to `max`. Threads are kept until shutdown.
// Thread-safe.
#include <httplib.h>

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace jgrid::api {

class TaskPool final : public httplib::TaskQueue {
 public:
  TaskPool(std::size_t base, std::size_t max);
  ~TaskPool() override;

  void enqueue(std::function<void()> task) override;
  // Runs what is queued, then joins every thread.
  void shutdown() override;

 private:
  void spawn_locked();
  void work();

  const std::size_t m_max;
  std::mutex m_mutex;
  std::condition_variable m_ready;
  std::deque<std::function<void()>> m_tasks;
  std::vector<std::thread> m_threads;
  std::size_t m_idle = 0;
  bool m_stopping = false;
};

}  // namespace jgrid::api
