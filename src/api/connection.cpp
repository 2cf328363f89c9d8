#include "api/connection.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace jgrid::api {
namespace {

constexpr std::size_t k_read_chunk = 16384;

void address_of(const sockaddr_storage& address, std::string& ip, int& port) {
  char text[INET6_ADDRSTRLEN] = {0};
  if (address.ss_family == AF_INET) {
    const auto& v4 = reinterpret_cast<const sockaddr_in&>(address);
    ::inet_ntop(AF_INET, &v4.sin_addr, text, sizeof(text));
    port = ntohs(v4.sin_port);
  } else if (address.ss_family == AF_INET6) {
    const auto& v6 = reinterpret_cast<const sockaddr_in6&>(address);
    ::inet_ntop(AF_INET6, &v6.sin6_addr, text, sizeof(text));
    port = ntohs(v6.sin6_port);
  }
  ip = text;
}

template <class Name>
void name_of(int fd, Name get_name, std::string& ip, int& port) {
  sockaddr_storage address{};
  socklen_t length = sizeof(address);
  if (get_name(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) address_of(address, ip, port);
}

bool retryable(int error) { return error == EAGAIN || error == EWOULDBLOCK || error == EINTR; }

}  // namespace

Connection::Connection(int fd, SSL* ssl) : m_fd(fd), m_ssl(ssl), m_handshake_done(ssl == nullptr) {
  ::fcntl(m_fd, F_SETFL, ::fcntl(m_fd, F_GETFL) | O_NONBLOCK);
  name_of(m_fd, ::getpeername, m_remote_ip, m_remote_port);
  name_of(m_fd, ::getsockname, m_local_ip, m_local_port);
  if (m_ssl) {
    SSL_set_fd(m_ssl, m_fd);
    SSL_set_mode(m_ssl, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    SSL_set_accept_state(m_ssl);
  }
}

Connection::~Connection() {
  if (m_ssl) {
    if (m_handshake_done) SSL_shutdown(m_ssl);  // one try; the socket is non-blocking
    SSL_free(m_ssl);
  }
  ::shutdown(m_fd, SHUT_RDWR);
  ::close(m_fd);
}

Connection::Io Connection::handshake() {
  if (m_handshake_done) return Io::progress;
  ERR_clear_error();
  int result = SSL_do_handshake(m_ssl);
  if (result == 1) {
    m_handshake_done = true;
    return Io::progress;
  }
  int error = SSL_get_error(m_ssl, result);
  m_wants_write = error == SSL_ERROR_WANT_WRITE;
  return error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE ? Io::would_block : Io::closed;
}

ssize_t Connection::raw_read(char* out, std::size_t size, bool& would_block) {
  would_block = false;
  if (!m_ssl) {
    ssize_t n = ::recv(m_fd, out, size, 0);
    if (n < 0 && retryable(errno)) would_block = true;
    return n;
  }
  ERR_clear_error();
  int n = SSL_read(m_ssl, out, static_cast<int>(std::min<std::size_t>(size, 1 << 30)));
  if (n > 0) return n;
  int error = SSL_get_error(m_ssl, n);
  would_block = error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE;
  m_wants_write = error == SSL_ERROR_WANT_WRITE;
  return would_block ? -1 : 0;
}

ssize_t Connection::raw_write(const char* data, std::size_t size, bool& would_block) {
  would_block = false;
  if (!m_ssl) {
    ssize_t n = ::send(m_fd, data, size, MSG_NOSIGNAL);
    if (n < 0 && retryable(errno)) would_block = true;
    return n;
  }
  ERR_clear_error();
  int n = SSL_write(m_ssl, data, static_cast<int>(std::min<std::size_t>(size, 1 << 30)));
  if (n > 0) return n;
  int error = SSL_get_error(m_ssl, n);
  would_block = error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE;
  m_wants_write = error == SSL_ERROR_WANT_WRITE;
  return -1;
}

// Reads into a buffer on the stack and keeps only what arrived: a
// connection that trickles holds a few bytes, not a whole read chunk.
Connection::Io Connection::fill(std::size_t max_buffered) {
  std::size_t room = max_buffered > pending().size() ? max_buffered - pending().size() : 0;
  if (room == 0) return Io::closed;
  char chunk[k_read_chunk];
  bool would_block = false;
  ssize_t n = raw_read(chunk, std::min(room, sizeof(chunk)), would_block);
  if (n > 0) {
    if (m_offset > 0) {
      m_buffer.erase(0, m_offset);
      m_offset = 0;
    }
    m_buffer.append(chunk, static_cast<std::size_t>(n));
    return Io::progress;
  }
  return would_block ? Io::would_block : Io::closed;
}

void Connection::consume(std::size_t n) {
  m_offset = std::min(m_buffer.size(), m_offset + n);
  if (m_offset == m_buffer.size()) {
    std::string().swap(m_buffer);  // an idle connection keeps no buffer
    m_offset = 0;
  }
}

void Connection::send_best_effort(std::string_view bytes) {
  while (!bytes.empty()) {
    bool would_block = false;
    ssize_t n = raw_write(bytes.data(), bytes.size(), would_block);
    if (n <= 0) return;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

bool Connection::wait(short events, std::chrono::milliseconds timeout) const {
  pollfd entry{m_fd, events, 0};
  auto until = std::chrono::steady_clock::now() + timeout;
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
    int result = ::poll(&entry, 1, static_cast<int>(std::max<std::int64_t>(left.count(), 0)));
    if (result > 0) return (entry.revents & events) != 0 || (entry.revents & (POLLHUP | POLLERR)) != 0;
    if (result == 0 || errno != EINTR) return false;
  }
}

bool Connection::wait_readable(std::chrono::milliseconds timeout) const { return wait(POLLIN, timeout); }
bool Connection::wait_writable(std::chrono::milliseconds timeout) const { return wait(POLLOUT, timeout); }

bool Connection::has_buffered() const { return m_offset < m_buffer.size() || (m_ssl && SSL_pending(m_ssl) > 0); }

ssize_t Connection::read(char* out, std::size_t size, std::chrono::milliseconds timeout) {
  while (m_offset == m_buffer.size()) {
    Io io = fill(k_read_chunk);
    if (io == Io::closed) return -1;
    if (io == Io::would_block && !(m_wants_write ? wait_writable(timeout) : wait_readable(timeout))) return -1;
  }
  std::size_t n = std::min(size, m_buffer.size() - m_offset);
  std::memcpy(out, m_buffer.data() + m_offset, n);
  consume(n);
  return static_cast<ssize_t>(n);
}

ssize_t Connection::write(const char* data, std::size_t size, std::chrono::milliseconds timeout) {
  std::size_t written = 0;
  while (written < size) {
    bool would_block = false;
    ssize_t n = raw_write(data + written, size - written, would_block);
    if (n > 0) {
      written += static_cast<std::size_t>(n);
      continue;
    }
    if (!would_block) return -1;
    if (!(m_wants_write || !m_ssl ? wait_writable(timeout) : wait_readable(timeout))) return -1;
  }
  return static_cast<ssize_t>(size);
}

bool ConnectionStream::is_readable() const {
  return m_connection.has_buffered() || m_connection.wait_readable(m_read_timeout);
}

// A peer that hung up or closed its side is not writable: a stream to it
// ends (and frees its worker and stream slot) at the next check instead of
// when a write finally fails.
bool ConnectionStream::is_writable() const {
  pollfd entry{m_connection.fd(), POLLOUT | POLLRDHUP, 0};
  if (::poll(&entry, 1, static_cast<int>(m_write_timeout.count())) <= 0) return false;
  if (entry.revents & (POLLHUP | POLLERR)) return false;
  if (!(entry.revents & POLLRDHUP)) return true;
  char byte = 0;
  return ::recv(m_connection.fd(), &byte, 1, MSG_PEEK | MSG_DONTWAIT) != 0;  // 0: end of stream
}

ssize_t ConnectionStream::read(char* ptr, size_t size) { return m_connection.read(ptr, size, m_read_timeout); }

ssize_t ConnectionStream::write(const char* ptr, size_t size) {
  return m_connection.write(ptr, size, m_write_timeout);
}

void ConnectionStream::get_remote_ip_and_port(std::string& ip, int& port) const {
  ip = m_connection.remote_ip();
  port = m_connection.remote_port();
}

void ConnectionStream::get_local_ip_and_port(std::string& ip, int& port) const {
  ip = m_connection.local_ip();
  port = m_connection.local_port();
}

}  // namespace jgrid::api
