// docs/api.md §2.8: artifact lists, signed download URLs, the bytes and Range.
#include "test_server.hpp"

using jgrid::test::Json;
using jgrid::test::rocm_example;
using jgrid::test::TestServer;

namespace {

struct Finished {
  std::string job_id;
  Json artifact;
};

Finished finished_job(const TestServer& server) {
  std::string id = server.submit(rocm_example());
  server.wait_terminal(id);
  auto list = server.get("/v1/jobs/" + id + "/artifacts");
  REQUIRE(list.status == 200);
  REQUIRE(list.json["artifacts"].size() >= 1);
  return {id, list.json["artifacts"][0]};
}

}  // namespace

TEST_CASE("api artifacts list the collected files and the expected ones", "[api][artifacts]") {
  TestServer server;
  std::string id = server.submit(rocm_example());
  server.wait_terminal(id);
  auto list = server.get("/v1/jobs/" + id + "/artifacts");
  INFO(list.body);
  REQUIRE(list.status == 200);
  CHECK(list.json["job_id"] == id);
  bool found = false;
  for (const auto& artifact : list.json["artifacts"]) {
    found = found || artifact["filename"] == "result.json";
    CHECK(artifact["ready"] == true);
    CHECK(artifact["job_id"] == id);
  }
  CHECK(found);
  CHECK(list.json["expected"] == Json::array({{{"path", "/workspace/artifacts/result.json"}, {"present", true}}}));
}

TEST_CASE("api signed artifact URL serves the bytes without a bearer", "[api][artifacts]") {
  TestServer server;
  auto [id, artifact] = finished_job(server);
  std::string aid = artifact["artifact_id"];
  auto download = server.post("/v1/jobs/" + id + "/artifacts/" + aid + "/download", Json::object());
  INFO(download.body);
  REQUIRE(download.status == 200);
  CHECK(download.json["url"] == download.json["download_url"]);
  CHECK(download.json["ready"] == true);
  CHECK(download.json["artifact_id"] == aid);
  CHECK(download.json["expires_at"].is_string());
  std::string path = local_part(server, download.json["url"]);

  auto bytes = server.get(path);
  REQUIRE(bytes.status == 200);
  CHECK(bytes.body.size() == artifact["size_bytes"].get<std::size_t>());
  CHECK(bytes.header("Content-Type") == artifact["content_type"]);
  CHECK(bytes.json.is_object());  // result.json is JSON

  auto range = server.get(path, {{"Range", "bytes=0-1"}});
  CHECK(range.status == 206);
  CHECK(range.body == bytes.body.substr(0, 2));
  CHECK(range.header("Content-Range") == "bytes 0-1/" + std::to_string(bytes.body.size()));
  auto suffix = server.get(path, {{"Range", "bytes=-3"}});
  CHECK(suffix.status == 206);
  CHECK(suffix.body == bytes.body.substr(bytes.body.size() - 3));
  auto outside = server.get(path, {{"Range", "bytes=100000-"}});
  CHECK(outside.status == 416);
  CHECK(outside.json["ok"] == false);
  auto several = server.get(path, {{"Range", "bytes=0-1,3-4"}});
  CHECK(several.status == 200);  // only single ranges are honoured
  CHECK(several.body == bytes.body);

  auto head = server.head(path);
  CHECK(head.status == 200);
  CHECK(head.body.empty());
}

TEST_CASE("api tampered or missing artifact signatures are 403", "[api][artifacts]") {
  TestServer server;
  auto [id, artifact] = finished_job(server);
  auto download = server.post("/v1/mcp/jobs/" + id + "/artifacts/" + artifact["artifact_id"].get<std::string>() +
                                  "/download",
                              Json::object());
  REQUIRE(download.json["ok"] == true);
  std::string path = local_part(server, download.json["data"]["url"]);
  std::string tampered = path;
  tampered.back() = tampered.back() == '0' ? '1' : '0';
  for (const auto& bad : {tampered, path.substr(0, path.find('?')),
                          path.substr(0, path.find("expires=")) + "expires=1&" + path.substr(path.find("sig="))}) {
    auto reply = server.get(bad);
    INFO(bad);
    CHECK(reply.status == 403);
    CHECK(reply.json["error"]["code"] == "FORBIDDEN");
  }
}

TEST_CASE("api artifact download of unknown artifacts is 404", "[api][artifacts]") {
  TestServer server;
  auto [id, artifact] = finished_job(server);
  auto missing = server.post("/v1/jobs/" + id + "/artifacts/art_missing/download", Json::object());
  CHECK(missing.status == 404);
  CHECK(missing.json["error"]["code"] == "NOT_FOUND");
  // Artifacts may also be named by their file name.
  auto by_name = server.post("/v1/jobs/" + id + "/artifacts/result.json/download", Json::object());
  CHECK(by_name.status == 200);
}

TEST_CASE("api artifact download before the job finished is 409 ARTIFACT_NOT_READY", "[api][artifacts]") {
  TestServer server;
  Json body = rocm_example();
  body["sim"] = {{"duration_s", 3600}};
  std::string id = server.submit(body);
  auto reply = server.post("/v1/jobs/" + id + "/artifacts/result.json/download", Json::object());
  CHECK(reply.status == 409);
  CHECK(reply.json["error"]["code"] == "ARTIFACT_NOT_READY");
}
