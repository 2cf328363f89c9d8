// docs/api.md §5 against hostile receivers, on real sockets: the HTTP
// callback transport reads a bounded part of a reply, ends an attempt at its
// wall deadline, and refuses (at send time) a URL that is this server.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <fstream>
#include <functional>
#include <string>
#include <thread>

#include "jgrid/api/callback_transport.hpp"

using namespace jgrid;
using Clock = std::chrono::steady_clock;

namespace {

bool send_all(int fd, const std::string& data) {
  std::size_t sent = 0;
  while (sent < data.size()) {
    ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

// A loopback listener that reads each request's head and hands the socket
// to `answer`, which writes what it likes until it returns or `stopping`.
class RawReceiver {
 public:
  using Answer = std::function<void(int fd, const std::atomic<bool>& stopping)>;
  explicit RawReceiver(Answer answer) : m_answer(std::move(answer)) {
    m_listener = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(m_listener, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0);
    REQUIRE(::listen(m_listener, 8) == 0);
    socklen_t length = sizeof(address);
    ::getsockname(m_listener, reinterpret_cast<sockaddr*>(&address), &length);
    port = ntohs(address.sin_port);
    m_thread = std::thread([this] { serve(); });
  }
  ~RawReceiver() {
    m_stopping = true;
    m_thread.join();
    ::close(m_listener);
  }
  std::string url(const std::string& host = "127.0.0.1") const {
    return "http://" + host + ":" + std::to_string(port) + "/hook";
  }
  int port = 0;
  std::atomic<int> connections{0};

 private:
  void serve() {
    while (!m_stopping) {
      pollfd p{m_listener, POLLIN, 0};
      if (::poll(&p, 1, 20) != 1) continue;
      int fd = ::accept(m_listener, nullptr, nullptr);
      if (fd < 0) continue;
      ++connections;
      std::string head;
      char c;
      while (head.find("\r\n\r\n") == std::string::npos && ::recv(fd, &c, 1, 0) == 1) head += c;
      m_answer(fd, m_stopping);
      ::close(fd);
    }
  }
  Answer m_answer;
  int m_listener = -1;
  std::atomic<bool> m_stopping{false};
  std::thread m_thread;
};

long rss_kb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  return -1;
}

engine::CallbackRequest request_to(const std::string& url) {
  return {url, {{"X-JGrid-Delivery", "dlv_test"}}, R"({"event":"job.completed"})"};
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Streams `total` bytes of `chunk` (or until the reader goes away).
void stream(int fd, const std::string& chunk, std::size_t total, const std::atomic<bool>& stopping) {
  for (std::size_t sent = 0; sent < total && !stopping; sent += chunk.size())
    if (!send_all(fd, chunk)) return;
}

}  // namespace

TEST_CASE("callback transport reads 4 KiB of a huge reply, drops it, and lets the status decide", "[callbacks]") {
  RawReceiver receiver([](int fd, const std::atomic<bool>& stopping) {
    if (!send_all(fd, "HTTP/1.1 200 OK\r\nContent-Length: 3000000000\r\n\r\n")) return;
    stream(fd, std::string(64 * 1024, 'x'), std::size_t{128} << 20, stopping);  // 128 MiB, then hangs up
  });
  auto transport = api::make_http_callback_transport();
  long before = rss_kb();
  auto start = Clock::now();
  auto response = transport->post(request_to(receiver.url()));
  INFO(response.error);
  CHECK(response.status == 200);
  CHECK(response.truncated);
  CHECK(response.body == std::string(4096, 'x'));
  CHECK(seconds_since(start) < 5);
  CHECK(rss_kb() - before < 50 * 1024);
}

TEST_CASE("callback transport ends an attempt at its wall deadline, however the receiver trickles", "[callbacks]") {
  RawReceiver receiver([](int fd, const std::atomic<bool>& stopping) {
    std::string head = "HTTP/1.1 200 OK\r\nX-Slow: " + std::string(1000, 'a');
    for (char c : head) {  // one byte every 50 ms: each read is quick, the head never ends in time
      if (stopping || !send_all(fd, std::string(1, c))) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  api::CallbackTransportOptions options;
  options.attempt_deadline = std::chrono::milliseconds(1000);
  auto transport = api::make_http_callback_transport(options);
  auto start = Clock::now();
  auto response = transport->post(request_to(receiver.url()));
  double took = seconds_since(start);
  CHECK(response.status == 0);
  CHECK(response.error.rfind("timed out", 0) == 0);
  CHECK(response.retry);
  CHECK(took >= 0.9);
  CHECK(took < 3);
}

TEST_CASE("callback transport ends an attempt whose reply head has no end", "[callbacks]") {
  RawReceiver receiver([](int fd, const std::atomic<bool>& stopping) {
    if (!send_all(fd, "HTTP/1.1 200 OK\r\n")) return;
    stream(fd, "X-More: " + std::string(100, 'h') + "\r\n", std::size_t{64} << 20, stopping);
  });
  auto transport = api::make_http_callback_transport();
  long before = rss_kb();
  auto start = Clock::now();
  auto response = transport->post(request_to(receiver.url()));
  INFO(response.error);
  CHECK(response.status == 0);
  CHECK(response.error.find("reply head is over") != std::string::npos);
  CHECK(seconds_since(start) < 5);
  CHECK(rss_kb() - before < 50 * 1024);
}

TEST_CASE("callback transport refuses at send time a URL that resolves to this server", "[callbacks]") {
  RawReceiver receiver([](int fd, const std::atomic<bool>&) { send_all(fd, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"); });
  api::CallbackTransportOptions options;
  options.server_port = [port = receiver.port] { return port; };  // the receiver plays this server
  auto transport = api::make_http_callback_transport(options);
  for (std::string host : {"2130706433", "0x7f.0.0.1", "0177.0.0.1", "127.1", "0", "127.0.0.1.", "localhost"}) {
    INFO(host);
    auto response = transport->post(request_to(receiver.url(host)));
    CHECK(response.status == 0);
    CHECK(response.error.find("this server") != std::string::npos);
    CHECK_FALSE(response.retry);
  }
  CHECK(receiver.connections == 0);
}

TEST_CASE("callback transport reaches a receiver on another port of this machine under any spelling", "[callbacks]") {
  RawReceiver receiver([](int fd, const std::atomic<bool>&) { send_all(fd, "HTTP/1.1 204 No Content\r\n\r\n"); });
  api::CallbackTransportOptions options;
  options.server_port = [port = receiver.port + 1] { return port; };
  auto transport = api::make_http_callback_transport(options);
  for (std::string host : {"127.0.0.1", "2130706433", "0x7f.0.0.1", "127.1", "127.0.0.1."}) {
    INFO(host);
    auto response = transport->post(request_to(receiver.url(host)));
    INFO(response.error);
    CHECK(response.status == 204);
    CHECK_FALSE(response.truncated);
  }
}
