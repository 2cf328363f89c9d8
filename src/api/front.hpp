#pragma once
// The connection front: one thread that accepts connections and holds every
// connection that has not sent a whole request head yet (new ones, TLS
// handshakes, idle keep-alive ones), with epoll, so a client that trickles
// its head or sits idle costs a socket and a small buffer, never a worker
// thread. A connection goes to a worker only once its head is complete and
// within HeadLimits; the worker serves that one request and gives the
// connection back for the next.
//
// Deadlines: a head must be complete within `header_timeout` of its first
// byte (of the accept for a new connection, handshake included): 408 and
// close otherwise. An idle keep-alive connection is closed after
// `keep_alive_timeout`. When `max_waiting` connections are held, a new one
// first sheds the idle keep-alive connection closest to its deadline, else
// the unfinished head that has taken longest.
// Thread-safe: run() on one thread; stop() and give_back() from any.
#include <openssl/ssl.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "api/connection.hpp"
#include "api/request_head.hpp"

namespace jgrid::api {

struct FrontOptions {
  HeadLimits limits;
  std::chrono::milliseconds header_timeout{10000};
  std::chrono::milliseconds keep_alive_timeout{3000};
  std::size_t max_waiting = 4096;
  SSL_CTX* tls = nullptr;  // not owned; null: plain HTTP
};

// Receives a connection whose pending() bytes start with a complete head.
using Dispatch = std::function<void(std::unique_ptr<Connection>)>;

class Front {
 public:
  // `listen_fd` is a bound, listening socket (not owned).
  Front(int listen_fd, FrontOptions options, Dispatch dispatch);
  ~Front();
  Front(const Front&) = delete;
  Front& operator=(const Front&) = delete;

  // Serves until stop(); closes every connection it still holds on return.
  void run();
  void stop();
  // Takes a connection back after a worker answered a request on it; closed
  // at once after stop().
  void give_back(std::unique_ptr<Connection> connection);

 private:
  void accept_all();
  void adopt(std::unique_ptr<Connection> connection, bool fresh);
  void on_ready(int fd);
  void advance(Connection& connection);
  void watch(Connection& connection, bool add);
  void dispatch(int fd);
  void refuse(int fd, int status, const std::string& code, const std::string& message);
  void close(int fd);
  void sweep();
  bool shed_one();
  void adopt_returned();

  const int m_listen_fd;
  const FrontOptions m_options;
  const Dispatch m_dispatch;
  int m_epoll = -1;
  int m_wake = -1;
  bool m_accept_paused = false;
  Connection::Clock::time_point m_resume_accept;
  std::unordered_map<int, std::unique_ptr<Connection>> m_connections;
  std::size_t m_peak = 0;  // most connections held since memory was last released
  std::atomic<bool> m_stopping{false};
  std::mutex m_returned_mutex;
  std::vector<std::unique_ptr<Connection>> m_returned;
};

// An HTTP/1.1 response for a request the front refuses (JSON error body,
// Connection: close).
std::string refusal_response(int status, const std::string& code, const std::string& message);

}  // namespace jgrid::api
