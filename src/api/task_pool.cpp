#include "api/task_pool.hpp"

#include <algorithm>

namespace jgrid::api {

TaskPool::TaskPool(std::size_t base, std::size_t max) : m_max(std::max<std::size_t>(max, 1)) {
  std::lock_guard lock(m_mutex);
  for (std::size_t i = 0; i < std::min(base, m_max); ++i) spawn_locked();
}

TaskPool::~TaskPool() { shutdown(); }

void TaskPool::enqueue(std::function<void()> task) {
  {
    std::lock_guard lock(m_mutex);
    m_tasks.push_back(std::move(task));
    if (m_tasks.size() > m_idle && m_threads.size() < m_max) spawn_locked();
  }
  m_ready.notify_one();
}

void TaskPool::shutdown() {
  {
    std::lock_guard lock(m_mutex);
    if (m_stopping) return;
    m_stopping = true;
  }
  m_ready.notify_all();
  // No thread is added once m_stopping is set, so the vector is stable.
  for (auto& thread : m_threads) thread.join();
}

void TaskPool::spawn_locked() { m_threads.emplace_back([this] { work(); }); }

void TaskPool::work() {
  std::unique_lock lock(m_mutex);
  while (true) {
    ++m_idle;
    m_ready.wait(lock, [this] { return m_stopping || !m_tasks.empty(); });
    --m_idle;
    if (m_tasks.empty()) return;  // stopping, nothing left
    auto task = std::move(m_tasks.front());
    m_tasks.pop_front();
    lock.unlock();
    task();
    lock.lock();
  }
}

}  // namespace jgrid::api
