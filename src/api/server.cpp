#include "jgrid/api/server.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>

#include "api/body_cache.hpp"
#include "api/call.hpp"
#include "api/front.hpp"
#include "api/http_adapter.hpp"
#include "api/subscriber_slots.hpp"
#include "api/task_pool.hpp"
#include "api/tls.hpp"
#include "jgrid/util/clock.hpp"
#include "jgrid/util/log.hpp"

namespace jgrid::api {
namespace {

constexpr std::size_t k_keep_alive_requests = 10000;
constexpr time_t k_keep_alive_seconds = 3;
constexpr time_t k_write_timeout_seconds = 30;
// Set by the library's logger when a reply says Connection: close (a
// drained server, a body that could not be drained): the worker then
// closes the connection instead of giving it back to the front.
thread_local bool t_reply_closes = false;
// How long a worker waits for the next request of a keep-alive connection
// before handing it back to the front.
constexpr std::chrono::milliseconds k_linger{2};
// The library listens with a backlog of 5: a burst of new connections
// overflowed it and waited out a 1 s SYN retransmit or failed.
constexpr int k_listen_backlog = 1024;

// "/api/" -> "/api"; "/" -> "".
std::string normal_base_path(std::string path) {
  while (!path.empty() && path.back() == '/') path.pop_back();
  if (!path.empty() && path.front() != '/') path.insert(path.begin(), '/');
  return path;
}

ServerOptions normalised(ServerOptions options) {
  options.base_path = normal_base_path(options.base_path);
  options.threads = std::max(options.threads, 2);
  options.heartbeat_ms = std::max<std::int64_t>(options.heartbeat_ms, 10);
  options.max_connections = std::max(options.max_connections, options.threads);
  options.read_timeout_s = std::max(options.read_timeout_s, 1);
  return options;
}

std::string url_host(const std::string& host) {
  if (host == "0.0.0.0" || host.empty()) return "127.0.0.1";
  if (host == "::") return "[::1]";
  return host.find(':') != std::string::npos ? "[" + host + "]" : host;
}

// True when binding host:port fails because something else holds it.
bool port_in_use(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0 || !found) return false;
  int fd = ::socket(found->ai_family, found->ai_socktype, found->ai_protocol);
  int yes = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  bool in_use = fd >= 0 && ::bind(fd, found->ai_addr, found->ai_addrlen) != 0 && errno == EADDRINUSE;
  if (fd >= 0) ::close(fd);
  freeaddrinfo(found);
  return in_use;
}

Error bind_error(const std::string& host, int port) {
  int cause = errno;  // before the probe below changes it
  std::string where = "port " + std::to_string(port) + " on " + host;
  nlohmann::json details = {{"host", host}, {"port", port}};
  if (port_in_use(host, port))
    return make_error("PORT_IN_USE", where + " is already in use: stop the other process or pass --port", details);
  return make_error("BIND_FAILED", "cannot listen on " + where + ": " + std::strerror(cause), details);
}

std::string scheme(const ServerOptions& options) { return options.tls_cert_file.empty() ? "http://" : "https://"; }

FrontOptions front_options(const ServerOptions& options, SSL_CTX* tls) {
  FrontOptions front;
  front.limits.max_head_bytes = static_cast<std::size_t>(options.max_header_bytes);
  front.header_timeout = std::chrono::milliseconds(options.header_timeout_s * 1000LL);
  front.keep_alive_timeout = std::chrono::seconds(k_keep_alive_seconds);
  front.max_waiting = static_cast<std::size_t>(options.max_waiting_connections);
  front.tls = tls;
  return front;
}

}  // namespace

// The HTTP library, used for parsing heads and bodies, routing and writing
// replies, one request at a time on a connection the front hands over.
// Its own accept loop and thread-per-connection model are not used.
class RequestServer final : public httplib::Server {
 public:
  // Serves the request whose head starts connection.pending(). True when
  // the connection may carry another request.
  bool serve_one(Connection& connection, std::chrono::milliseconds read_timeout,
                 std::chrono::milliseconds write_timeout, bool last) {
    ConnectionStream stream(connection, read_timeout, write_timeout);
    bool closed = false;
    t_reply_closes = false;
    bool written = process_request(stream, last, closed, nullptr);
    ++connection.served;
    return written && !closed && !last && !t_reply_closes;
  }
  int listening_socket() const { return svr_sock_; }
  // Streams end when the library sees its socket gone (write_content_chunked).
  void mark_stopped() { svr_sock_ = INVALID_SOCKET; }
};

struct Server::Impl {
  ServerOptions options;
  std::atomic<bool> stopping{false};
  BodyCache bodies;
  SubscriberSlots subscribers;
  StreamSlots streams;
  Context context;
  HttpAdapter adapter;
  ServerTls tls;
  RequestServer http;
  TaskPool pool;
  std::unique_ptr<Front> front;
  int port = 0;
  int listen_fd = -1;
  HeadLimits front_limits;

  Impl(engine::Engine& engine, const store::Store& store, ServerOptions opts)
      : options(normalised(std::move(opts))),
        subscribers(options.max_stream_subscribers),
        streams(options.max_streams, options.max_streams_per_key),
        context{engine, store, options, stopping, util::wall_now_ms(), &bodies, &subscribers, &streams},
        adapter(context, ""),
        pool(static_cast<std::size_t>(options.threads), static_cast<std::size_t>(options.max_connections)) {
    if (!options.tls_cert_file.empty()) tls = make_server_tls(options.tls_cert_file, options.tls_key_file);
    // Only for the Keep-Alive header the library writes: reads, writes and
    // TCP_NODELAY are the front's and ConnectionStream's.
    http.set_keep_alive_max_count(k_keep_alive_requests);
    http.set_keep_alive_timeout(k_keep_alive_seconds);
    // The library's default adds SO_REUSEPORT, which would let a second
    // server share a busy port silently instead of failing with PORT_IN_USE.
    http.set_socket_options([](socket_t sock) {
      int yes = 1;
      ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    });
    http.set_logger([](const httplib::Request&, const httplib::Response& res) {
      if (res.get_header_value("Connection") == "close") t_reply_closes = true;
    });
    // The handlers enforce max_body/max_upload with JSON errors; the
    // library's own limit only stops what they would drain anyway.
    auto limit = std::max(options.max_body_bytes, options.max_upload_bytes) + (64LL << 20);
    http.set_payload_max_length(static_cast<std::size_t>(limit));
    adapter.install(http);
  }

  // Runs on a worker: requests of one connection while each next head is
  // there at once (or within k_linger), then the connection goes back to
  // the front, or is closed when it cannot carry another.
  void serve(std::unique_ptr<Connection> connection) {
    while (serve_one(*connection) && !stopping.load()) {
      if (!next_head_ready(*connection)) {
        if (front) front->give_back(std::move(connection));
        return;
      }
    }
  }

  bool serve_one(Connection& connection) {
    bool last = connection.served + 1 >= k_keep_alive_requests || stopping.load();
    try {
      return http.serve_one(connection, std::chrono::seconds(options.read_timeout_s),
                            std::chrono::seconds(k_write_timeout_seconds), last);
    } catch (const std::exception& error) {
      util::log(util::LogLevel::error, "http", std::string("request failed: ") + error.what());
      return false;
    }
  }

  // A keep-alive client usually sends its next request right after reading
  // the reply; serving it here saves two hand-overs between threads. Only a
  // head that is complete counts: anything else (a partial head, a refusal,
  // silence) goes back to the front, so a slow client never holds the worker
  // longer than k_linger.
  bool next_head_ready(Connection& connection) {
    const HeadLimits& limits = front_limits;
    auto scan = scan_head(connection.pending(), limits);
    if (scan.state != HeadScan::State::incomplete || !connection.pending().empty())
      return scan.state == HeadScan::State::complete;
    if (!connection.has_buffered() && !connection.wait_readable(k_linger)) return false;
    if (connection.fill(limits.max_head_bytes) != Connection::Io::progress) return false;
    return scan_head(connection.pending(), limits).state == HeadScan::State::complete;
  }

  void dispatch(std::unique_ptr<Connection> connection) {
    // std::function needs a copyable callable: the connection rides in a shared_ptr.
    auto held = std::make_shared<std::unique_ptr<Connection>>(std::move(connection));
    pool.enqueue([this, held] { serve(std::move(*held)); });
  }

  ~Impl() { close_listener(); }

  void close_listener() {
    if (listen_fd >= 0) ::close(listen_fd);
    listen_fd = -1;
  }

  std::string url() const {
    if (!options.public_url.empty()) {
      std::string url = options.public_url;
      while (!url.empty() && url.back() == '/') url.pop_back();
      return url;
    }
    return scheme(options) + url_host(options.host) + ":" + std::to_string(port) + options.base_path;
  }
};

Server::Server(engine::Engine& engine, const store::Store& store, ServerOptions options)
    : m_impl(std::make_unique<Impl>(engine, store, std::move(options))) {}

Server::~Server() { stop(); }

Result<int> Server::bind() {
  auto& impl = *m_impl;
  if (!impl.options.tls_cert_file.empty() && !impl.tls)
    return make_error("TLS_SETUP_FAILED", "cannot serve HTTPS: the certificate " + impl.options.tls_cert_file +
                                              " or the key " + impl.options.tls_key_file +
                                              " cannot be loaded, or they do not match (PEM files expected)");
  const std::string& host = impl.options.host;
  if (impl.options.port == 0) {
    impl.port = impl.http.bind_to_any_port(host);
    if (impl.port < 0) return bind_error(host, 0);
  } else {
    if (!impl.http.bind_to_port(host, impl.options.port)) return bind_error(host, impl.options.port);
    impl.port = impl.options.port;
  }
  impl.options.port = impl.port;  // handlers see the bound port (callback targets, docs/api.md §5)
  int listen_fd = impl.listen_fd = impl.http.listening_socket();
  ::listen(listen_fd, k_listen_backlog);  // raises the library's backlog
  ::fcntl(listen_fd, F_SETFL, ::fcntl(listen_fd, F_GETFL) | O_NONBLOCK);
  auto front = front_options(impl.options, impl.tls.get());
  impl.front_limits = front.limits;
  impl.front = std::make_unique<Front>(listen_fd, front,
                                       [&impl](std::unique_ptr<Connection> c) { impl.dispatch(std::move(c)); });
  impl.adapter.set_fallback_base_url(scheme(impl.options) + url_host(host) + ":" + std::to_string(impl.port) +
                                     impl.options.base_path);
  return impl.port;
}

void Server::run() {
  auto& impl = *m_impl;
  if (!impl.front) return;
  if (!impl.stopping.load()) impl.front->run();
  impl.pool.shutdown();  // lets in-flight requests finish
  impl.http.mark_stopped();
  impl.close_listener();
}

void Server::stop() {
  m_impl->stopping.store(true);
  m_impl->http.mark_stopped();
  if (m_impl->front) m_impl->front->stop();
}

std::string Server::url() const { return m_impl->url(); }

}  // namespace jgrid::api
