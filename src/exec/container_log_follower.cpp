#include "exec/container_log_follower.hpp"

#include <algorithm>

namespace jgrid::exec {

LogFileFollower::LogFileFollower(std::filesystem::path path, Deliver deliver)
    : m_tail(std::move(path)), m_deliver(std::move(deliver)), m_thread([this] { run(); }) {}

LogFileFollower::~LogFileFollower() { abandon(); }

std::string LogFileFollower::finish() {
  {
    std::lock_guard lock(m_mutex);
    m_finishing = true;
  }
  m_wake.notify_all();
  stop_thread();
  return m_tail.opened() ? "" : m_tail.open_error();
}

void LogFileFollower::abandon() {
  {
    std::lock_guard lock(m_mutex);
    m_abandoned = true;
  }
  m_wake.notify_all();
  stop_thread();
}

void LogFileFollower::stop_thread() {
  if (m_thread.joinable() && m_thread.get_id() != std::this_thread::get_id()) m_thread.join();
}

// A read shorter than a batch reached the end of the file; when finish() had
// been called before it, that end is the file's last.
void LogFileFollower::run() {
  std::vector<LogLine> lines;
  std::chrono::milliseconds poll = k_min_poll;
  for (;;) {
    bool finishing = false;
    {
      std::lock_guard lock(m_mutex);
      if (m_abandoned) return;
      finishing = m_finishing;
    }
    std::size_t got = m_tail.read(lines, k_batch_bytes);
    if (!lines.empty()) m_deliver(lines);
    lines.clear();
    if (got == k_batch_bytes) continue;
    if (finishing) break;
    poll = got > 0 ? k_min_poll : std::min(poll * 2, k_max_poll);
    if (!wait_for_more(poll)) return;
  }
  m_tail.finish(lines);
  if (!lines.empty()) m_deliver(lines);
}

// False when abandoned meanwhile.
bool LogFileFollower::wait_for_more(std::chrono::milliseconds poll) {
  std::unique_lock lock(m_mutex);
  m_wake.wait_for(lock, poll, [&] { return m_finishing || m_abandoned; });
  return !m_abandoned;
}

}  // namespace jgrid::exec
