#include "api/task_pool.hpp"

#include <algorithm>

#include "jgrid/util/log.hpp"

namespace jgrid::api {

TaskPool::TaskPool(std::size_t base, std::size_t max, std::chrono::milliseconds retire_after)
    : m_base(std::min(base, std::max<std::size_t>(max, 1))),
      m_max(std::max<std::size_t>(max, 1)),
      m_retire_after(retire_after) {
  std::lock_guard lock(m_mutex);
  for (std::size_t i = 0; i < m_base; ++i) spawn_locked();
}

TaskPool::~TaskPool() { shutdown(); }

void TaskPool::enqueue(std::function<void()> task) {
  {
    std::lock_guard lock(m_mutex);
    m_tasks.push_back(std::move(task));
    join_retired_locked();
    if (m_tasks.size() > m_idle && m_threads.size() < m_max && !m_stopping) spawn_locked();
  }
  m_ready.notify_one();
}

void TaskPool::shutdown() {
  std::list<std::thread> threads;
  {
    std::lock_guard lock(m_mutex);
    if (m_stopping) return;
    m_stopping = true;
    // Once m_stopping is set no thread is added and none retires (work()),
    // so both lists are stable: take them whole.
    threads.splice(threads.end(), m_threads);
    threads.splice(threads.end(), m_retired);
  }
  m_ready.notify_all();
  for (auto& thread : threads)
    if (thread.joinable()) thread.join();
}

std::size_t TaskPool::threads() const {
  std::lock_guard lock(m_mutex);
  return m_threads.size();
}

void TaskPool::spawn_locked() {
  m_threads.emplace_back();
  auto self = std::prev(m_threads.end());
  *self = std::thread([this, self] { work(self); });
}

void TaskPool::join_retired_locked() {
  for (auto& thread : m_retired)
    if (thread.joinable()) thread.join();  // each has returned from work(): quick
  m_retired.clear();
}

void TaskPool::work(std::list<std::thread>::iterator self) {
  std::unique_lock lock(m_mutex);
  while (true) {
    ++m_idle;
    bool woke = m_ready.wait_for(lock, m_retire_after, [this] { return m_stopping || !m_tasks.empty(); });
    --m_idle;
    if (!woke && !m_stopping && m_threads.size() > m_base) break;  // idle above the base size: retire
    if (m_tasks.empty()) {
      if (m_stopping) return;  // shutdown() holds this thread's entry now
      continue;
    }
    auto task = std::move(m_tasks.front());
    m_tasks.pop_front();
    lock.unlock();
    try {
      task();
    } catch (const std::exception& error) {
      util::log(util::LogLevel::error, "http", std::string("a worker's task failed: ") + error.what());
    } catch (...) {
      util::log(util::LogLevel::error, "http", "a worker's task failed with an unknown exception");
    }
    lock.lock();
  }
  // Hands its own std::thread to m_retired for a later join.
  m_retired.splice(m_retired.end(), m_threads, self);
}

}  // namespace jgrid::api
