#pragma once
// The wall-clock watch over callback attempts in flight (docs/api.md §5).
// The HTTP library's timeouts bound each read and write, not an attempt, so
// a receiver that trickles a byte at a time could hold one for ever; and it
// keeps every byte of a reply head, so one that sends an endless head could
// fill memory. One thread ends an attempt whose deadline has passed, or
// whose socket received more than a cap before the head was complete, by
// shutting its socket down: a connect, read or write blocked on it in the
// library returns at once. Thread-safe.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <thread>

namespace jgrid::api {

class AttemptWatch {
 public:
  struct Limits {
    std::chrono::milliseconds deadline{15000};  // the whole attempt
    std::uint64_t max_head_bytes = 256 * 1024;   // received before the head is complete
  };
  enum class End { none, deadline, head_too_large, cancelled };

  // One attempt, watched from begin() until the handle is destroyed.
  class Attempt {
   public:
    ~Attempt();  // stops watching; closes the duplicate of the socket
    Attempt(const Attempt&) = delete;
    Attempt& operator=(const Attempt&) = delete;
    // The socket the library just created for this attempt (before it
    // connects). Kept as a duplicate, so its number cannot name another
    // socket while it is watched.
    void adopt(int fd);
    // The reply head is complete: its size is no longer watched.
    void head_done();
    bool head_complete() const;
    // Why the watch ended the attempt, or End::none.
    End end() const;

   private:
    friend class AttemptWatch;
    struct State;
    Attempt(std::shared_ptr<State> state, std::chrono::steady_clock::time_point deadline);
    std::shared_ptr<State> m_state;
    std::chrono::steady_clock::time_point m_deadline;
    int m_fd = -1;
    bool m_head_done = false;
    End m_end = End::none;
  };

  explicit AttemptWatch(Limits limits);
  ~AttemptWatch();
  AttemptWatch(const AttemptWatch&) = delete;
  AttemptWatch& operator=(const AttemptWatch&) = delete;

  // Starts watching an attempt whose deadline is `limits.deadline` from
  // now; nullptr after cancel_all() (until resume()).
  std::unique_ptr<Attempt> begin();
  // Ends every attempt in flight now (End::cancelled) and refuses new ones.
  void cancel_all();
  void resume();

 private:
  void run();
  std::shared_ptr<Attempt::State> m_state;
  std::thread m_thread;
};

}  // namespace jgrid::api
