#pragma once
// One client connection (a non-blocking socket, with its TLS session when
// the server speaks HTTPS) and the bytes read from it but not yet used.
// It moves between the connection front, which waits for a whole request
// head without holding a worker thread, and a worker, which serves one
// request through ConnectionStream and hands the connection back.
// Not thread-safe: one owner at a time, handed over by moving it.
#include <httplib.h>
#include <openssl/ssl.h>

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

namespace jgrid::api {

class Connection {
 public:
  using Clock = std::chrono::steady_clock;

  // Takes ownership of `fd` (made non-blocking here) and of `ssl` (may be
  // null: plain HTTP). Closes both when destroyed.
  Connection(int fd, SSL* ssl);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  enum class Io { progress, would_block, closed };

  // One step of the TLS handshake; `progress` once it is done (at once for
  // plain HTTP). `wants_write` tells which readiness the next step needs.
  Io handshake();
  bool handshake_done() const { return m_handshake_done; }
  bool wants_write() const { return m_wants_write; }

  // Reads what the socket has (at most `max_buffered` kept in all):
  // progress when bytes arrived, would_block when none are ready, closed on
  // end of stream, error or a full buffer.
  Io fill(std::size_t max_buffered);

  // Bytes received and not yet consumed.
  std::string_view pending() const { return std::string_view(m_buffer).substr(m_offset); }
  void consume(std::size_t n);

  // Plain send of a short reply from a non-blocking context: what fits now
  // is written, the rest dropped (used for refusals before closing).
  void send_best_effort(std::string_view bytes);

  // Blocking I/O for the worker: waits at most `timeout` for readiness
  // before each step. read() returns bytes copied, or -1 on timeout, end of
  // stream or error; write() returns `size`, or -1.
  ssize_t read(char* out, std::size_t size, std::chrono::milliseconds timeout);
  ssize_t write(const char* data, std::size_t size, std::chrono::milliseconds timeout);
  // True when a read would not block (bytes buffered here or in TLS).
  bool has_buffered() const;
  // Waits up to `timeout` for the socket to be readable / writable.
  bool wait_readable(std::chrono::milliseconds timeout) const;
  bool wait_writable(std::chrono::milliseconds timeout) const;

  int fd() const { return m_fd; }
  const std::string& remote_ip() const { return m_remote_ip; }
  int remote_port() const { return m_remote_port; }
  const std::string& local_ip() const { return m_local_ip; }
  int local_port() const { return m_local_port; }

  // Book-keeping of the front and the workers.
  Clock::time_point deadline;   // the front closes the connection then
  bool head_started = false;    // a byte of the next head has arrived
  std::size_t served = 0;       // requests answered on this connection

 private:
  ssize_t raw_read(char* out, std::size_t size, bool& would_block);
  ssize_t raw_write(const char* data, std::size_t size, bool& would_block);
  bool wait(short events, std::chrono::milliseconds timeout) const;

  int m_fd;
  SSL* m_ssl;
  bool m_handshake_done;
  bool m_wants_write = false;
  std::string m_buffer;
  std::size_t m_offset = 0;
  std::string m_remote_ip, m_local_ip;
  int m_remote_port = 0, m_local_port = 0;
};

// The HTTP library's view of a connection while a worker serves it.
class ConnectionStream final : public httplib::Stream {
 public:
  ConnectionStream(Connection& connection, std::chrono::milliseconds read_timeout,
                   std::chrono::milliseconds write_timeout)
      : m_connection(connection), m_read_timeout(read_timeout), m_write_timeout(write_timeout) {}

  using httplib::Stream::write;
  bool is_readable() const override;
  bool is_writable() const override;
  ssize_t read(char* ptr, size_t size) override;
  ssize_t write(const char* ptr, size_t size) override;
  void get_remote_ip_and_port(std::string& ip, int& port) const override;
  void get_local_ip_and_port(std::string& ip, int& port) const override;
  socket_t socket() const override { return m_connection.fd(); }

 private:
  Connection& m_connection;
  std::chrono::milliseconds m_read_timeout, m_write_timeout;
};

}  // namespace jgrid::api
