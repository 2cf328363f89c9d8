#pragma once
// Integration fixture: the whole grid in-process. An in-memory store, the
// default simulated fleet on a fast real clock, the engine, and the HTTP
// server on a free port, with a temporary data dir removed at the end.
// Requests go through httplib::Client like any other client.
#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "jgrid/api/callback_transport.hpp"
#include "jgrid/api/server.hpp"
#include "jgrid/engine/engine.hpp"
#include "jgrid/exec/fleet.hpp"
#include "jgrid/exec/sim_executor.hpp"
#include "jgrid/model/status.hpp"
#include "jgrid/store/store.hpp"
#include "jgrid/util/clock.hpp"
#include "jgrid/util/ids.hpp"

namespace jgrid::test {

namespace fs = std::filesystem;
using Json = nlohmann::json;

struct TestServerOptions {
  std::string base_path;
  std::string public_url;
  fs::path web_dir;
  std::int64_t max_body_bytes = 1 << 20;
  std::int64_t max_upload_bytes = 8 << 20;
  std::int64_t heartbeat_ms = 15000;
  double time_scale = 100.0;  // sim seconds per real second
  std::optional<exec::Fleet> fleet;  // default: exec::default_fleet()
  // Adds nodes and executors (e.g. a local container node) before the engine starts.
  std::function<void(exec::Fleet&, exec::ExecutorRegistry&, const fs::path& data_dir,
                     const std::shared_ptr<util::Clock>&)>
      extend;
  bool virtual_clock = false;  // a virtual clock instead (time_scale unused)
  bool file_store = false;     // the store in <data_dir>/jgrid.db instead of in memory
  int max_attempts = 2;
  std::int64_t callback_backoff_base_ms = 1000;  // clock ms
  // Last word on the server's options (auth, limits).
  std::function<void(api::ServerOptions&)> configure;
};

// The key that signs callbacks of jobs without an auth token in TestServer.
inline const std::string k_test_callback_secret = "test-callback-secret";

// A response as the tests look at it.
struct HttpReply {
  int status = 0;
  std::string body;
  httplib::Headers headers;
  Json json;  // parsed body, or null when it is not JSON

  std::string header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? "" : it->second;
  }
};

// The ROCm example of examples/jobs/rocm-inference.json.
inline Json rocm_example() {
  return Json{{"name", "rocm-inference-example"},
              {"workload_type", "inference"},
              {"image", "ghcr.io/acme/pytorch-rocm:latest"},
              {"gpu_vendor", "amd"},
              {"runtime", "rocm"},
              {"framework", "pytorch-rocm"},
              {"command", "python infer.py"},
              {"expected_artifacts", {"/workspace/artifacts/result.json"}}};
}

// One Server-Sent Event as received.
struct SseEvent {
  std::string id, event;
  Json data;
  int data_lines = 0;
};

// Splits a received stream into events (LF framing, docs/api.md §2.6).
inline std::vector<SseEvent> parse_sse(const std::string& text) {
  std::vector<SseEvent> events;
  std::size_t start = 0;
  while (true) {
    auto end = text.find("\n\n", start);
    if (end == std::string::npos) return events;
    SseEvent event;
    std::size_t line_start = start;
    while (line_start < end) {
      auto line_end = std::min(text.find('\n', line_start), end);
      std::string line = text.substr(line_start, line_end - line_start);
      if (line.rfind("id: ", 0) == 0) event.id = line.substr(4);
      if (line.rfind("event: ", 0) == 0) event.event = line.substr(7);
      if (line.rfind("data: ", 0) == 0) {
        event.data = Json::parse(line.substr(6), nullptr, false);
        event.data_lines++;
      }
      line_start = line_end + 1;
    }
    events.push_back(std::move(event));
    start = end + 2;
  }
}

class TestServer {
 public:
  explicit TestServer(TestServerOptions options = {}) : m_options(std::move(options)) {
    data_dir = fs::temp_directory_path() / ("jgrid-it-" + util::random_hex(6));
    fs::create_directories(data_dir);
    store::StoreOptions store_options;
    if (m_options.file_store) store_options.path = (data_dir / "jgrid.db").string();
    auto opened = store::Store::open(store_options);
    REQUIRE(opened.ok());
    m_store = std::move(*opened);
    m_clock = m_options.virtual_clock ? util::make_virtual_clock() : util::make_real_clock(m_options.time_scale);
    auto fleet = m_options.fleet ? *m_options.fleet : exec::default_fleet();
    exec::ExecutorRegistry executors{{"simulated", exec::make_sim_executor(m_clock, fleet)}};
    if (m_options.extend) m_options.extend(fleet, executors, data_dir, m_clock);
    engine::EngineOptions engine_options;
    engine_options.data_dir = data_dir;
    engine_options.max_attempts = m_options.max_attempts;
    api::CallbackTransportOptions transport;
    transport.server_port = [bound = m_bound_port] { return bound->load(); };
    engine_options.callback_transport = api::make_http_callback_transport(std::move(transport));
    engine_options.callback_secret = k_test_callback_secret;
    engine_options.callback_backoff_base_ms = m_options.callback_backoff_base_ms;
    m_engine = std::make_unique<engine::Engine>(*m_store, m_clock, fleet, executors, engine_options);
    REQUIRE(m_engine->start().ok());
    start_server();
  }

  ~TestServer() {
    stop_server();
    m_engine->stop();
    m_server.reset();
    m_engine.reset();
    m_store.reset();
    std::error_code ignored;
    fs::remove_all(data_dir, ignored);
  }

  TestServer(const TestServer&) = delete;
  TestServer& operator=(const TestServer&) = delete;

  httplib::Client client() const {
    httplib::Client client("127.0.0.1", port);
    client.set_url_encode(false);
    client.set_read_timeout(30, 0);
    client.set_connection_timeout(5, 0);
    return client;
  }

  HttpReply get(const std::string& path, const httplib::Headers& headers = {}) const {
    auto client = this->client();
    return to_reply(client.Get(path.c_str(), headers));
  }
  HttpReply head(const std::string& path) const {
    auto client = this->client();
    return to_reply(client.Head(path.c_str()));
  }
  HttpReply post(const std::string& path, const Json& body, const httplib::Headers& headers = {}) const {
    return post_raw(path, body.dump(), headers);
  }
  HttpReply post_raw(const std::string& path, const std::string& body, const httplib::Headers& headers = {}) const {
    auto client = this->client();
    return to_reply(client.Post(path.c_str(), headers, body, "application/json"));
  }
  HttpReply put_raw(const std::string& path, const std::string& body, const httplib::Headers& headers = {},
                    const std::string& content_type = "application/octet-stream") const {
    auto client = this->client();
    return to_reply(client.Put(path.c_str(), headers, body, content_type.c_str()));
  }
  HttpReply send(const std::string& method, const std::string& path) const {
    auto client = this->client();
    httplib::Request request;
    request.method = method;
    request.path = path;
    return to_reply(client.send(request));
  }

  // Sends `request` as raw bytes on a new connection and returns everything
  // the server sent until it closed (use "Connection: close").
  std::string raw_request(const std::string& request) const {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0);
    REQUIRE(::send(fd, request.data(), request.size(), 0) == static_cast<ssize_t>(request.size()));
    std::string received;
    char buffer[4096];
    for (ssize_t n; (n = ::recv(fd, buffer, sizeof(buffer), 0)) > 0;) received.append(buffer, static_cast<std::size_t>(n));
    ::close(fd);
    return received;
  }

  // Reads a stream until the server ends it or `enough(received)` holds.
  std::string read_stream(const std::string& path, const httplib::Headers& headers,
                          const std::function<bool(const std::string&)>& enough) const {
    auto client = this->client();
    client.set_read_timeout(20, 0);
    std::string received;
    client.Get(path.c_str(), headers, [&](const char* data, std::size_t size) {
      received.append(data, size);
      return !enough(received);
    });
    return received;
  }

  // Submits `body` and requires 202; returns the job id.
  std::string submit(const Json& body) const {
    auto reply = post("/v1/jobs", body);
    INFO(reply.body);
    REQUIRE(reply.status == 202);
    return reply.json.at("job_id").get<std::string>();
  }

  // Polls the job until `done(job)` or the timeout; returns the last job.
  Json wait_job(const std::string& id, const std::function<bool(const Json&)>& done,
                std::chrono::milliseconds timeout = std::chrono::seconds(60)) const {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    Json job;
    while (std::chrono::steady_clock::now() < deadline) {
      auto reply = get("/v1/jobs/" + id);
      REQUIRE(reply.status == 200);
      job = reply.json;
      if (done(job)) return job;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    FAIL("job " << id << " did not reach the awaited state; last: " << job.dump());
    return job;
  }

  Json wait_terminal(const std::string& id) const {
    return wait_job(id, [](const Json& job) {
      auto status = model::parse_job_status(job.at("status").get<std::string>());
      return status && model::is_terminal(*status);
    });
  }

  // Stops the HTTP server (as a shutdown signal would) and waits for run().
  void stop_server() {
    m_server->stop();
    if (m_thread.joinable()) m_thread.join();
  }

  std::int64_t count_jobs() const { return m_store->count_jobs(); }
  const store::Store& store() const { return *m_store; }
  engine::Engine& engine() { return *m_engine; }
  util::Clock& clock() { return *m_clock; }
  // Waits until every write queued so far is in the store (reads then see it).
  void flush() { m_store->flush(); }

  int port = 0;
  std::string url;
  fs::path data_dir;
  std::string secret = util::random_hex(32);

 private:
  static HttpReply to_reply(const httplib::Result& result) {
    REQUIRE(result);
    HttpReply reply{result->status, result->body, result->headers, Json()};
    reply.json = Json::parse(reply.body, nullptr, false);
    if (reply.json.is_discarded()) reply.json = Json();
    return reply;
  }

  void start_server() {
    api::ServerOptions options;
    options.port = 0;
    options.base_path = m_options.base_path;
    options.public_url = m_options.public_url;
    options.web_dir = m_options.web_dir;
    options.data_dir = data_dir;
    options.signing_secret = secret;
    options.max_body_bytes = m_options.max_body_bytes;
    options.max_upload_bytes = m_options.max_upload_bytes;
    options.heartbeat_ms = m_options.heartbeat_ms;
    options.threads = 16;
    if (m_options.configure) m_options.configure(options);
    m_server = std::make_unique<api::Server>(*m_engine, *m_store, options);
    auto bound = m_server->bind();
    REQUIRE(bound.ok());
    port = *bound;
    m_bound_port->store(port);
    url = m_server->url();
    m_thread = std::thread([this] { m_server->run(); });
    for (int i = 0; i < 200; ++i) {
      httplib::Client probe("127.0.0.1", port);
      if (auto result = probe.Get("/healthz"); result && result->status == 200) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    FAIL("server did not answer /healthz");
  }

  TestServerOptions m_options;
  std::shared_ptr<std::atomic<int>> m_bound_port = std::make_shared<std::atomic<int>>(0);  // for the sender
  std::unique_ptr<store::Store> m_store;
  std::shared_ptr<util::Clock> m_clock;
  std::unique_ptr<engine::Engine> m_engine;
  std::unique_ptr<api::Server> m_server;
  std::thread m_thread;
};

// The path and query of an absolute URL served by `server`.
inline std::string local_part(const TestServer& server, const std::string& url) {
  REQUIRE(url.rfind(server.url, 0) == 0);
  return url.substr(server.url.size());
}

// Runs every clock timer due by now, then keeps the clock where it is: a
// timer due now (after the others due now) holds it again. The caller held
// the clock; it is held again on return.
inline void run_due_timers(util::Clock& clock) {
  std::promise<void> reached;
  clock.schedule(clock.now_ms(), [&] {
    clock.hold();
    reached.set_value();
  });
  clock.release();
  reached.get_future().wait();
}

}  // namespace jgrid::test
