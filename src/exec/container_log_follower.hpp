#pragma once
// Follows a container's log file (container_log_file.hpp) on a thread of its
// own while the container runs, handing over the lines in batches: each
// batch is what one read found (at most k_batch_bytes of the file), so a
// chatty container gives large batches and a quiet one gets each line on
// its own within a few milliseconds.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "exec/container_log_file.hpp"

namespace jgrid::exec {

class LogFileFollower {
 public:
  static constexpr std::size_t k_batch_bytes = 1 << 20;
  static constexpr std::chrono::milliseconds k_min_poll{2};   // right after output
  static constexpr std::chrono::milliseconds k_max_poll{50};  // after a quiet while

  // Called on the follower's thread with each batch (never empty), in file
  // order; it may move from the lines.
  using Deliver = std::function<void(std::vector<LogLine>& lines)>;

  // Starts following `path` (it may not exist yet).
  LogFileFollower(std::filesystem::path path, Deliver deliver);
  // abandon(), when finish() was not called.
  ~LogFileFollower();
  LogFileFollower(const LogFileFollower&) = delete;
  LogFileFollower& operator=(const LogFileFollower&) = delete;

  // The container has exited, so the file is complete: delivers the rest,
  // the lines still open included, and returns. Returns the reason the
  // file could not be read ("" when it could).
  std::string finish();
  // Stops at once, without delivering what is left.
  void abandon();

 private:
  void run();
  bool wait_for_more(std::chrono::milliseconds poll);
  void stop_thread();

  LogFileTail m_tail;
  Deliver m_deliver;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  bool m_finishing = false;  // guarded by m_mutex
  bool m_abandoned = false;  // guarded by m_mutex
  std::thread m_thread;      // last: starts after everything above exists
};

}  // namespace jgrid::exec
