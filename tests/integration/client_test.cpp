// api::Client against the in-process server: JSON calls, the error
// envelope, SSE, signed downloads and transport failures.
#include "jgrid/api/client.hpp"

#include "test_server.hpp"

using jgrid::test::Json;
using jgrid::test::TestServer;

namespace {

jgrid::api::Client client_for(const TestServer& server, const std::string& suffix = "") {
  auto client = jgrid::api::Client::create({server.url + suffix, "", 5, 30});
  REQUIRE(client.ok());
  return std::move(*client);
}

}  // namespace

TEST_CASE("api::Client submits, reads and keeps the server's error code and message", "[api][client]") {
  TestServer server;
  auto client = client_for(server);
  auto job = client.post("/v1/jobs", jgrid::test::rocm_example());
  REQUIRE(job.ok());
  CHECK(job->at("status").is_string());
  auto again = client.get("/v1/jobs/" + job->at("job_id").get<std::string>());
  REQUIRE(again.ok());
  CHECK(again->at("job_id") == job->at("job_id"));

  auto missing = client.get("/v1/jobs/job_missing");
  REQUIRE(!missing.ok());
  CHECK(missing.error().code == "NOT_FOUND");
  CHECK(missing.error().details["http_status"] == 404);

  auto refused = client.post("/v1/jobs", Json{{"workload_type", "inference"}});
  REQUIRE(!refused.ok());
  CHECK(refused.error().code == "INVALID_REQUEST");
  CHECK(refused.error().message.find("image") != std::string::npos);

  auto listed = client.get("/v1/jobs", {{"status", "queued,running,completed,assigned,starting,pending"}});
  REQUIRE(listed.ok());
  CHECK(listed->at("jobs").size() == 1);
}

TEST_CASE("api::Client follows live logs to the terminal event and downloads the artifact", "[api][client]") {
  TestServer server;
  auto client = client_for(server);
  std::string id = server.submit(jgrid::test::rocm_example());
  std::vector<std::string> types;
  auto streamed = client.stream("/v1/jobs/" + id + "/logs/live", [&](const jgrid::api::SseMessage& message) {
    types.push_back(message.event);
    return true;
  });
  REQUIRE(streamed.ok());
  REQUIRE(!types.empty());
  CHECK(types.front() == "status");
  CHECK(types.back() == "terminal");

  auto artifacts = client.get("/v1/jobs/" + id + "/artifacts");
  REQUIRE(artifacts.ok());
  std::string aid = artifacts->at("artifacts")[0]["artifact_id"];
  auto link = client.post("/v1/jobs/" + id + "/artifacts/" + aid + "/download", Json::object());
  REQUIRE(link.ok());
  std::string bytes;
  std::uint64_t last_progress = 0;
  auto fetched = client.download(
      link->at("url"), [&](const char* data, std::size_t n) { return bytes.append(data, n), true; },
      [&](std::uint64_t done, std::uint64_t) { last_progress = done; });
  REQUIRE(fetched.ok());
  CHECK(bytes.size() == artifacts->at("artifacts")[0]["size_bytes"].get<std::size_t>());
  CHECK(last_progress == bytes.size());

  std::string tampered = link->at("url").get<std::string>() + "0";
  auto refused = client.download(tampered, [](const char*, std::size_t) { return true; });
  REQUIRE(!refused.ok());
  CHECK(refused.error().code == "DOWNLOAD_FAILED");
  CHECK(refused.error().message.find("403") != std::string::npos);
}

TEST_CASE("api::Client stops a stream when asked and reports a missing job on a stream", "[api][client]") {
  TestServer server;
  auto client = client_for(server);
  std::string id = server.submit(jgrid::test::rocm_example());
  int seen = 0;
  auto stopped = client.stream("/v1/jobs/" + id + "/logs/live", [&](const jgrid::api::SseMessage&) {
    return ++seen < 1;
  });
  CHECK(stopped.ok());
  CHECK(seen == 1);
  auto missing = client.stream("/v1/jobs/job_missing/logs/live", [](const jgrid::api::SseMessage&) { return true; });
  REQUIRE(!missing.ok());
  CHECK(missing.error().code == "NOT_FOUND");
}

TEST_CASE("api::Client refuses bad URLs and names an unreachable server", "[api][client]") {
  CHECK(jgrid::api::Client::create({"https://example.org"}).ok());  // verified TLS (e2e.tls)
  CHECK(jgrid::api::Client::create({"ftp://example.org"}).error().code == "INVALID_URL");
  jgrid::api::ClientOptions unreadable_ca{"https://example.org"};
  unreadable_ca.ca_file = "/nonexistent/ca.pem";
  CHECK(jgrid::api::Client::create(unreadable_ca).error().code == "INVALID_CA_FILE");
  CHECK(jgrid::api::Client::create({"127.0.0.1:8420"}).error().code == "INVALID_URL");
  auto parts = jgrid::api::split_url("http://h:1/grid/");
  REQUIRE(parts.ok());
  CHECK(parts->first == "http://h:1");
  CHECK(parts->second == "/grid");

  auto client = jgrid::api::Client::create({"http://127.0.0.1:1", "", 2, 2});
  REQUIRE(client.ok());
  auto result = client->get("/healthz");
  REQUIRE(!result.ok());
  CHECK(result.error().code == "CONNECTION_FAILED");
  CHECK(result.error().message.find("http://127.0.0.1:1") != std::string::npos);
}

TEST_CASE("api::Client serves a base path prefix", "[api][client]") {
  jgrid::test::TestServerOptions options;
  options.base_path = "/grid";
  TestServer server(options);
  auto client = client_for(server);  // server.url already ends with /grid
  auto health = client.get("/healthz");
  REQUIRE(health.ok());
  CHECK(health->at("ok") == true);
}
