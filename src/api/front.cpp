#include "api/front.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "api/errors.hpp"
#include "jgrid/util/log.hpp"
#include "jgrid/util/memory.hpp"

namespace jgrid::api {
namespace {

using Clock = Connection::Clock;
constexpr std::chrono::milliseconds k_sweep_period{200};
constexpr std::chrono::milliseconds k_accept_pause{100};
// Room past the head limit, so a head just over it is seen and refused
// rather than cut off by the buffer.
constexpr std::size_t k_buffer_slack = 16384;
// After this many connections were held at once and three quarters of them
// have gone, freed memory goes back to the system.
constexpr std::size_t k_release_after_peak = 256;

const char* reason_phrase(int status) {
  switch (status) {
    case 408: return "Request Timeout";
    case 414: return "URI Too Long";
    case 431: return "Request Header Fields Too Large";
    default: return "Error";
  }
}

}  // namespace

std::string refusal_response(int status, const std::string& code, const std::string& message) {
  std::string body = to_http_error(make_error(code, message)).body.dump() + "\n";
  return "HTTP/1.1 " + std::to_string(status) + " " + reason_phrase(status) +
         "\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n\r\n" + body;
}

Front::Front(int listen_fd, FrontOptions options, Dispatch dispatch)
    : m_listen_fd(listen_fd), m_options(std::move(options)), m_dispatch(std::move(dispatch)) {
  m_epoll = ::epoll_create1(EPOLL_CLOEXEC);
  m_wake = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  epoll_event wake{EPOLLIN, {.fd = m_wake}};
  ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_wake, &wake);
  epoll_event listen{EPOLLIN, {.fd = m_listen_fd}};
  ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_listen_fd, &listen);
}

Front::~Front() {
  m_connections.clear();
  if (m_wake >= 0) ::close(m_wake);
  if (m_epoll >= 0) ::close(m_epoll);
}

void Front::stop() {
  m_stopping.store(true);
  std::uint64_t one = 1;
  [[maybe_unused]] auto written = ::write(m_wake, &one, sizeof(one));
}

void Front::give_back(std::unique_ptr<Connection> connection) {
  {
    std::lock_guard lock(m_returned_mutex);
    if (m_stopping.load()) return;  // closed as it goes out of scope
    m_returned.push_back(std::move(connection));
  }
  std::uint64_t one = 1;
  [[maybe_unused]] auto written = ::write(m_wake, &one, sizeof(one));
}

void Front::run() {
  std::vector<epoll_event> events(256);
  auto next_sweep = Clock::now() + k_sweep_period;
  while (!m_stopping.load()) {
    int ready = ::epoll_wait(m_epoll, events.data(), static_cast<int>(events.size()),
                             static_cast<int>(k_sweep_period.count()));
    for (int i = 0; i < ready; ++i) {
      int fd = events[i].data.fd;
      if (fd == m_listen_fd) accept_all();
      else if (fd == m_wake) adopt_returned();
      else on_ready(fd);
    }
    if (Clock::now() >= next_sweep) {
      sweep();
      next_sweep = Clock::now() + k_sweep_period;
    }
  }
  std::lock_guard lock(m_returned_mutex);
  m_returned.clear();
  m_connections.clear();
}

void Front::accept_all() {
  while (true) {
    int fd = ::accept4(m_listen_fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      // Out of descriptors: make room, or stop accepting for a moment so a
      // readable listening socket does not spin this thread.
      if ((errno == EMFILE || errno == ENFILE) && shed_one()) continue;
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, m_listen_fd, nullptr);
        m_accept_paused = true;
        m_resume_accept = Clock::now() + k_accept_pause;
      }
      return;
    }
    int yes = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof(yes));
    SSL* ssl = m_options.tls ? SSL_new(m_options.tls) : nullptr;
    if (m_options.tls && !ssl) {
      ::close(fd);
      continue;
    }
    if (m_connections.size() >= m_options.max_waiting) shed_one();
    adopt(std::make_unique<Connection>(fd, ssl), true);
  }
}

// A fresh connection has `header_timeout` for handshake and head; one
// coming back from a worker waits `keep_alive_timeout` for its next byte,
// unless the next head (pipelined) is already here.
void Front::adopt(std::unique_ptr<Connection> connection, bool fresh) {
  Connection& c = *connection;
  c.head_started = fresh || !c.pending().empty();
  c.deadline = Clock::now() + (c.head_started ? m_options.header_timeout : m_options.keep_alive_timeout);
  int fd = c.fd();
  m_connections[fd] = std::move(connection);
  watch(c, true);
  if (!c.pending().empty()) advance(c);
  // Bytes TLS decrypted but not yet handed out never make the socket
  // readable again: read them now.
  if (m_connections.count(fd) && c.has_buffered()) on_ready(fd);
}

void Front::adopt_returned() {
  std::uint64_t count = 0;
  [[maybe_unused]] auto got = ::read(m_wake, &count, sizeof(count));
  std::vector<std::unique_ptr<Connection>> returned;
  {
    std::lock_guard lock(m_returned_mutex);
    returned.swap(m_returned);
  }
  for (auto& connection : returned) {
    if (m_connections.size() >= m_options.max_waiting) shed_one();
    adopt(std::move(connection), false);
  }
}

void Front::watch(Connection& connection, bool add) {
  epoll_event event{};
  event.events = connection.wants_write() ? EPOLLOUT : EPOLLIN;
  event.data.fd = connection.fd();
  ::epoll_ctl(m_epoll, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, connection.fd(), &event);
}

void Front::on_ready(int fd) {
  auto it = m_connections.find(fd);
  if (it == m_connections.end()) return;
  Connection& connection = *it->second;
  auto shake = connection.handshake();
  if (shake == Connection::Io::closed) return close(fd);
  if (shake == Connection::Io::would_block) return watch(connection, false);
  while (true) {
    auto io = connection.fill(m_options.limits.max_head_bytes + k_buffer_slack);
    if (io == Connection::Io::closed) return close(fd);
    if (io == Connection::Io::would_block) return watch(connection, false);
    if (!connection.head_started) {
      connection.head_started = true;
      connection.deadline = Clock::now() + m_options.header_timeout;
    }
    advance(connection);
    if (!m_connections.count(fd)) return;  // dispatched or refused
  }
}

// Dispatches the connection once its head is complete, refuses it once the
// head breaks a limit, else leaves it waiting.
void Front::advance(Connection& connection) {
  HeadScan scan = scan_head(connection.pending(), m_options.limits);
  if (scan.state == HeadScan::State::complete) return dispatch(connection.fd());
  if (scan.state == HeadScan::State::refused) return refuse(connection.fd(), scan.status, scan.code, scan.message);
}

void Front::dispatch(int fd) {
  auto it = m_connections.find(fd);
  ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, fd, nullptr);
  auto connection = std::move(it->second);
  m_connections.erase(it);
  m_dispatch(std::move(connection));
}

void Front::refuse(int fd, int status, const std::string& code, const std::string& message) {
  auto it = m_connections.find(fd);
  if (it == m_connections.end()) return;
  it->second->send_best_effort(refusal_response(status, code, message));
  util::log(util::LogLevel::debug, "http", "refused a request head: " + message,
            {{"status", status}, {"peer", it->second->remote_ip()}});
  close(fd);
}

void Front::close(int fd) {
  ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, fd, nullptr);
  m_connections.erase(fd);
}

void Front::sweep() {
  auto now = Clock::now();
  if (m_accept_paused && now >= m_resume_accept) {
    epoll_event listen{EPOLLIN, {.fd = m_listen_fd}};
    ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_listen_fd, &listen);
    m_accept_paused = false;
  }
  m_peak = std::max(m_peak, m_connections.size());
  if (m_peak >= k_release_after_peak && m_connections.size() < m_peak / 4) {
    util::release_free_memory();
    m_peak = m_connections.size();
  }
  std::vector<int> expired;
  for (const auto& [fd, connection] : m_connections)
    if (connection->deadline <= now) expired.push_back(fd);
  for (int fd : expired) {
    Connection& connection = *m_connections[fd];
    if (connection.head_started && connection.handshake_done())
      connection.send_best_effort(refusal_response(
          408, "REQUEST_TIMEOUT",
          "the request head was not complete within " + std::to_string(m_options.header_timeout.count() / 1000) +
              " s (--header-timeout)"));
    close(fd);
  }
}

// Idle keep-alive connections go first, the one nearest its deadline; then
// the unfinished head that has been arriving longest.
bool Front::shed_one() {
  int victim = -1;
  bool victim_idle = false;
  Clock::time_point victim_deadline{};
  for (const auto& [fd, connection] : m_connections) {
    bool idle = !connection->head_started;
    bool better = victim < 0 || (idle && !victim_idle) ||
                  (idle == victim_idle && connection->deadline < victim_deadline);
    if (!better) continue;
    victim = fd;
    victim_idle = idle;
    victim_deadline = connection->deadline;
  }
  if (victim < 0) return false;
  close(victim);
  return true;
}

}  // namespace jgrid::api
