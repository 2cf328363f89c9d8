#pragma once
// A change counter that waiters can block on: producers call notify() after
// they made something visible; consumers remember version() and wait for it
// to move. Producers never wait for consumers. Thread-safe.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace jgrid::util {

class Notifier {
 public:
  std::uint64_t version() const {
    std::lock_guard lock(m_mutex);
    return m_version;
  }
  void notify() {
    {
      std::lock_guard lock(m_mutex);
      ++m_version;
    }
    m_changed.notify_all();
  }
  // Returns true when version() != seen before `timeout` ran out.
  bool wait_change(std::uint64_t seen, std::chrono::milliseconds timeout) const {
    std::unique_lock lock(m_mutex);
    return m_changed.wait_for(lock, timeout, [&] { return m_version != seen; });
  }

 private:
  mutable std::mutex m_mutex;
  mutable std::condition_variable m_changed;
  std::uint64_t m_version = 0;
};

}  // namespace jgrid::util
