// docs/api.md §2.8: a signed artifact URL works only exactly as issued. Every
// byte of its artifact id, expiry and query is changed, one position at a
// time, and each changed URL is refused with 403.
#include "test_server.hpp"

using jgrid::test::Json;
using jgrid::test::rocm_example;
using jgrid::test::TestServer;

namespace {

// Another URL-safe character in the same class, so the edit stays a
// plausible URL (a digit stays a digit, hex stays hex).
char changed(char c) {
  static const std::string k_hex = "0123456789abcdef";
  if (auto at = k_hex.find(c); at != std::string::npos) return k_hex[(at + 1) % k_hex.size()];
  return c == 'x' ? 'y' : 'x';
}

std::string signed_path(const TestServer& server) {
  std::string id = server.submit(rocm_example());
  server.wait_terminal(id);
  auto artifacts = server.get("/v1/jobs/" + id + "/artifacts");
  REQUIRE(artifacts.status == 200);
  REQUIRE(!artifacts.json["artifacts"].empty());
  std::string artifact = artifacts.json["artifacts"][0]["artifact_id"];
  auto link = server.post("/v1/jobs/" + id + "/artifacts/" + artifact + "/download", Json::object());
  REQUIRE(link.status == 200);
  std::string url = link.json["url"];
  return url.substr(server.url.size());
}

}  // namespace

TEST_CASE("api signed artifact URL: any one changed byte of id, expiry or query is 403", "[api][signing]") {
  TestServer server;
  std::string path = signed_path(server);
  REQUIRE(server.get(path).status == 200);
  const std::string prefix = "/v1/artifacts/";
  REQUIRE(path.rfind(prefix, 0) == 0);
  std::size_t id_end = path.find('/', prefix.size());
  REQUIRE(id_end != std::string::npos);
  std::size_t query = path.find('?');
  REQUIRE(query != std::string::npos);
  int edits = 0;
  for (std::size_t at = prefix.size(); at < path.size(); ++at) {
    if (at >= id_end && at <= query) continue;  // "/content?" names the route itself
    std::string edited = path;
    edited[at] = changed(path[at]);
    auto reply = server.get(edited);
    INFO(edited << ": " << reply.body);
    CHECK(reply.status == 403);
    CHECK(reply.json["error"]["code"] == "FORBIDDEN");
    ++edits;
  }
  CHECK(edits > 90);  // 26-character id, 10-digit expiry, 64 hex digits of signature
  CHECK(server.get(path).status == 200);
}
