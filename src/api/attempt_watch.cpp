#include "api/attempt_watch.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>

namespace jgrid::api {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto k_head_tick = std::chrono::milliseconds(5);  // how often a head's size is looked at

// The kernel's struct tcp_info as far as tcpi_bytes_received (Linux 4.1):
// glibc's copy ends before it, and <linux/tcp.h> clashes with glibc's.
struct TcpInfoBytes {
  tcp_info base;
  std::uint64_t pacing_rate, max_pacing_rate, bytes_acked, bytes_received;
};
static_assert(offsetof(TcpInfoBytes, bytes_received) == 128, "the kernel's tcp_info layout");

// Bytes the kernel has received on `fd` (read by the library or not); 0
// when it cannot tell.
std::uint64_t bytes_received(int fd) {
  TcpInfoBytes info{};
  socklen_t length = sizeof(info);
  if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &length) != 0 || length < sizeof(info)) return 0;
  return info.bytes_received;
}

}  // namespace

struct AttemptWatch::Attempt::State {
  Limits limits;
  std::mutex mutex;
  std::condition_variable cv;
  std::list<Attempt*> attempts;  // watched, guarded by mutex
  bool cancelled = false;
  bool stopping = false;

  // Requires `mutex`.
  static void end_locked(Attempt& a, End why) {
    a.m_end = why;
    if (a.m_fd >= 0) ::shutdown(a.m_fd, SHUT_RDWR);
  }
};

AttemptWatch::Attempt::Attempt(std::shared_ptr<State> state, Clock::time_point deadline)
    : m_state(std::move(state)), m_deadline(deadline) {}

AttemptWatch::Attempt::~Attempt() {
  std::lock_guard lock(m_state->mutex);
  m_state->attempts.remove(this);
  if (m_fd >= 0) ::close(m_fd);
}

void AttemptWatch::Attempt::adopt(int fd) {
  std::lock_guard lock(m_state->mutex);
  if (m_fd >= 0) ::close(m_fd);
  m_fd = ::dup(fd);
  if (m_end != End::none && m_fd >= 0) ::shutdown(m_fd, SHUT_RDWR);
  m_state->cv.notify_all();
}

void AttemptWatch::Attempt::head_done() {
  std::lock_guard lock(m_state->mutex);
  m_head_done = true;
}

bool AttemptWatch::Attempt::head_complete() const {
  std::lock_guard lock(m_state->mutex);
  return m_head_done;
}

AttemptWatch::End AttemptWatch::Attempt::end() const {
  std::lock_guard lock(m_state->mutex);
  return m_end;
}

AttemptWatch::AttemptWatch(Limits limits) : m_state(std::make_shared<Attempt::State>()) {
  m_state->limits = limits;
  m_thread = std::thread([this] { run(); });
}

AttemptWatch::~AttemptWatch() {
  {
    std::lock_guard lock(m_state->mutex);
    m_state->stopping = true;
    m_state->cv.notify_all();
  }
  m_thread.join();
}

std::unique_ptr<AttemptWatch::Attempt> AttemptWatch::begin() {
  std::lock_guard lock(m_state->mutex);
  if (m_state->cancelled) return nullptr;
  std::unique_ptr<Attempt> attempt(new Attempt(m_state, Clock::now() + m_state->limits.deadline));
  m_state->attempts.push_back(attempt.get());
  m_state->cv.notify_all();
  return attempt;
}

void AttemptWatch::cancel_all() {
  std::lock_guard lock(m_state->mutex);
  m_state->cancelled = true;
  for (Attempt* a : m_state->attempts) Attempt::State::end_locked(*a, End::cancelled);
}

void AttemptWatch::resume() {
  std::lock_guard lock(m_state->mutex);
  m_state->cancelled = false;
}

// Wakes at the earliest deadline, and every tick while a head is arriving.
void AttemptWatch::run() {
  Attempt::State& s = *m_state;
  std::unique_lock lock(s.mutex);
  while (!s.stopping) {
    auto now = Clock::now();
    auto next = now + std::chrono::hours(1);
    for (Attempt* a : s.attempts) {
      if (a->m_end != End::none) continue;
      if (now >= a->m_deadline) {
        Attempt::State::end_locked(*a, End::deadline);
      } else if (!a->m_head_done && a->m_fd >= 0 && bytes_received(a->m_fd) > s.limits.max_head_bytes) {
        Attempt::State::end_locked(*a, End::head_too_large);
      } else {
        next = std::min(next, a->m_deadline);
        if (!a->m_head_done && a->m_fd >= 0) next = std::min(next, now + k_head_tick);
      }
    }
    s.cv.wait_until(lock, next);
  }
}

}  // namespace jgrid::api
