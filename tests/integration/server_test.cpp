// api::Server lifecycle: binding, URLs and stopping with streams open.
#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "test_server.hpp"

using jgrid::test::Json;
using jgrid::test::TestServer;
using jgrid::test::TestServerOptions;

TEST_CASE("api bind reports a port in use by name", "[api][server]") {
  TestServer server;
  jgrid::api::ServerOptions options;
  options.port = server.port;
  options.data_dir = server.data_dir;
  jgrid::api::Server second(server.engine(), server.store(), options);
  auto bound = second.bind();
  REQUIRE(!bound.ok());
  CHECK(bound.error().code == "PORT_IN_USE");
  CHECK(bound.error().message == "port " + std::to_string(server.port) +
                                     " on 127.0.0.1 is already in use: stop the other process or pass --port");
}

TEST_CASE("api url is the bound address, or the public URL", "[api][server]") {
  TestServer server;
  CHECK(server.url == "http://127.0.0.1:" + std::to_string(server.port));
  jgrid::api::ServerOptions options;
  options.port = 0;
  options.public_url = "https://grid.example.com/";
  jgrid::api::Server other(server.engine(), server.store(), options);
  REQUIRE(other.bind().ok());
  CHECK(other.url() == "https://grid.example.com");
}

TEST_CASE("api stop ends open streams and makes run return", "[api][server][sse]") {
  TestServer server;
  std::string received;
  std::thread reader([&] {
    received = server.read_stream("/v1/events", {}, [](const std::string&) { return false; });
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  auto started = std::chrono::steady_clock::now();
  server.stop_server();
  reader.join();
  auto took = std::chrono::steady_clock::now() - started;
  CHECK(took < std::chrono::seconds(4));
  auto client = server.client();
  CHECK(!client.Get("/healthz"));  // nothing listens any more
}

TEST_CASE("api many open streams do not starve other requests", "[api][server][sse]") {
  TestServer server;  // 16 base threads
  std::vector<std::thread> followers;
  std::atomic<int> ended{0};
  for (int i = 0; i < 40; ++i)
    followers.emplace_back([&] {
      server.read_stream("/v1/events", {}, [](const std::string&) { return false; });
      ++ended;
    });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  auto started = std::chrono::steady_clock::now();
  CHECK(server.get("/healthz").status == 200);
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(2));
  CHECK(ended == 0);
  server.stop_server();
  for (auto& follower : followers) follower.join();
  CHECK(ended == 40);
}

namespace {

// Streams /v1/events on `count` threads until `release`; returns once each
// has received its first bytes (a heartbeat), so their slots are taken.
std::vector<std::thread> hold_streams(const TestServer& server, int count, const std::atomic<bool>& release,
                                      const httplib::Headers& headers) {
  std::vector<std::thread> holders;
  auto connected = std::make_shared<std::atomic<int>>(0);
  for (int i = 0; i < count; ++i)
    holders.emplace_back([&server, &release, connected, headers] {
      bool counted = false;
      server.read_stream("/v1/events", headers, [&](const std::string&) {
        if (!counted) ++*connected;
        counted = true;
        return release.load();
      });
    });
  for (int i = 0; i < 500 && connected->load() < count; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  REQUIRE(connected->load() == count);
  return holders;
}

}  // namespace

TEST_CASE("api caps live streams in all and per caller with 429 and Retry-After", "[api][server][sse]") {
  std::atomic<bool> release{false};
  TestServerOptions options;
  options.heartbeat_ms = 50;  // a stream whose client left ends at its next heartbeat
  options.configure = [](jgrid::api::ServerOptions& server) {
    server.max_streams = 3;
    server.max_streams_per_key = 2;
  };
  SECTION("per key (with auth off any bearer is taken, and counted as a key)") {
    TestServer server(options);
    httplib::Headers key = {{"Authorization", "Bearer jg_one_key"}};
    auto holders = hold_streams(server, 2, release, key);
    auto refused = server.get("/v1/events", key);
    CHECK(refused.status == 429);
    CHECK(refused.json["error"]["message"].get<std::string>().find("--max-streams-per-key") != std::string::npos);
    CHECK(refused.headers.count("Retry-After") == 1);
    CHECK(server.get("/healthz").status == 200);
    // Another key still gets a stream: the third and last slot in all.
    std::atomic<bool> other_release{false};
    auto other = hold_streams(server, 1, other_release, {{"Authorization", "Bearer jg_other_key"}});
    other_release = true;
    for (auto& holder : other) holder.join();
    release = true;
    for (auto& holder : holders) holder.join();
  }
  SECTION("in all, callers without a key (auth off) included") {
    TestServer server(options);
    auto holders = hold_streams(server, 3, release, {});
    auto refused = server.get("/v1/events");
    CHECK(refused.status == 429);
    CHECK(refused.json["error"]["message"].get<std::string>().find("(--max-streams)") != std::string::npos);
    release = true;
    for (auto& holder : holders) holder.join();
  }
}
