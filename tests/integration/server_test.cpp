// api::Server lifecycle: binding, URLs and stopping with streams open.
#include <atomic>

#include "test_server.hpp"

using jgrid::test::Json;
using jgrid::test::TestServer;

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
