// README "Limits": request-shape limits (nesting, environment keys, labels),
// live-log subscribers per job and the free-disk reserve of uploads.
#include <atomic>
#include <thread>

#include "test_server.hpp"

using jgrid::test::Json;
using jgrid::test::rocm_example;
using jgrid::test::TestServer;
using jgrid::test::TestServerOptions;

namespace {

std::string nested(int depth) {
  return "{\"workload_type\":\"inference\",\"metadata\":{\"a\":" + std::string(depth, '[') + std::string(depth, ']') +
         "}}";
}

Json map_of(int count) {
  Json out = Json::object();
  for (int i = 0; i < count; ++i) out["K" + std::to_string(i)] = "v";
  return out;
}

}  // namespace

TEST_CASE("api limits: JSON nested deeper than --max-json-depth is 400 naming the depth", "[api][limits]") {
  TestServer server;
  auto deep = server.post_raw("/v1/jobs/estimate", nested(63));  // 65 levels with the two objects
  INFO(deep.body);
  CHECK(deep.status == 400);
  CHECK(deep.json["error"]["code"] == "INVALID_REQUEST");
  CHECK(deep.json["error"]["message"].get<std::string>().find("65 levels") != std::string::npos);
  CHECK(server.post_raw("/v1/jobs/estimate", nested(62)).status == 200);  // exactly 64
  // Brackets inside strings do not count.
  Json body = rocm_example();
  body["name"] = std::string(150, '[');
  CHECK(server.post("/v1/jobs/estimate", body).status == 200);
}

TEST_CASE("api limits: more environment keys or labels than allowed is 400 naming the field", "[api][limits]") {
  TestServerOptions options;
  options.configure = [](jgrid::api::ServerOptions& server) {
    server.max_env_keys = 4;
    server.max_labels = 2;
  };
  TestServer server(options);
  for (const auto& [field, allowed] : std::vector<std::pair<std::string, int>>{{"environment", 4}, {"env", 4},
                                                                                {"labels", 2}}) {
    Json body = rocm_example();
    body[field] = map_of(allowed + 1);
    auto refused = server.post("/v1/jobs", body);
    INFO(field << ": " << refused.body);
    CHECK(refused.status == 400);
    CHECK(refused.json["error"]["message"].get<std::string>().rfind(field + ":", 0) == 0);
    body[field] = map_of(allowed);
    CHECK(server.post("/v1/jobs/estimate", body).status == 200);
  }
  auto jobs = server.get("/v1/jobs");
  CHECK(jobs.json["jobs"].empty());
}

TEST_CASE("api limits: live log subscribers past --max-stream-subscribers get 429", "[api][limits][sse]") {
  TestServerOptions options;
  options.heartbeat_ms = 50;
  options.configure = [](jgrid::api::ServerOptions& server) { server.max_stream_subscribers = 2; };
  TestServer server(options);
  Json body = rocm_example();
  body["sim"] = {{"duration_s", 3600}};
  std::string id = server.submit(body);
  std::string path = "/v1/jobs/" + id + "/logs/live";
  std::atomic<int> receiving{0};
  std::atomic<bool> release{false};
  std::vector<std::thread> readers;
  for (int i = 0; i < 2; ++i)
    readers.emplace_back([&] {
      bool counted = false;
      server.read_stream(path, {}, [&](const std::string&) {
        if (!counted) receiving += 1;
        counted = true;
        return release.load();
      });
    });
  while (receiving.load() < 2) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  auto third = server.get(path);
  INFO(third.body);
  CHECK(third.status == 429);
  CHECK(third.json["error"]["code"] == "RATE_LIMITED");
  CHECK(!third.header("Retry-After").empty());
  release = true;
  for (auto& reader : readers) reader.join();
  // The slots are given back once the server notices the readers left.
  bool admitted = false;
  for (int i = 0; i < 500 && !admitted; ++i) {
    int status = 0;
    server.read_stream(path, {}, [&](const std::string& text) {
      status = text.empty() ? 0 : 200;
      return true;
    });
    admitted = status == 200;
    if (!admitted) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  CHECK(admitted);
  CHECK(server.post("/v1/jobs/" + id + "/cancel", Json::object()).status == 200);
}

TEST_CASE("api limits: an upload that would eat the free-disk reserve is 507 with the figures",
          "[api][limits][inputs]") {
  TestServerOptions options;
  options.configure = [](jgrid::api::ServerOptions& server) { server.min_free_disk_bytes = 1LL << 60; };
  TestServer server(options);
  auto ticket = server.post("/v1/job-inputs", Json{{"filename", "big.bin"}});
  REQUIRE(ticket.status == 200);
  std::string url = ticket.json["upload"]["upload_url"];
  auto refused = server.put_raw(url.substr(server.url.size()), "hello");
  INFO(refused.body);
  CHECK(refused.status == 507);
  CHECK(refused.json["error"]["code"] == "INSUFFICIENT_STORAGE");
  std::string message = refused.json["error"]["message"];
  CHECK(message.find("needs") != std::string::npos);
  CHECK(message.find("free") != std::string::npos);
  CHECK(refused.json["error"]["details"]["needed_bytes"].get<std::int64_t>() > (1LL << 60));
  CHECK(server.get("/v1/job-inputs").json["inputs"][0]["status"] != "ready");
}
