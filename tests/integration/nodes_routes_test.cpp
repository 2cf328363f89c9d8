// docs/api.md §2.10 `GET /v1/nodes` over a large fleet: the streamed whole list
// and the pages (limit, cursor) give every node once, in fleet order.
#include <set>

#include "test_server.hpp"

using namespace jgrid;
using jgrid::test::Json;
using jgrid::test::TestServer;
using jgrid::test::TestServerOptions;

namespace {

constexpr int k_nodes = 2600;  // more than several stream chunks and pages

TestServerOptions large_fleet() {
  Json doc = {{"pools",
               {{{"name", "big"},
                 {"count", k_nodes},
                 {"region", "us-east"},
                 {"gpu", {{"vendor", "amd"}, {"model", "MI300X"}, {"family", "instinct"}, {"count", 8}, {"vram_gb", 192}}},
                 {"runtime", {{"name", "rocm"}, {"version", "6.2"}}},
                 {"price_per_gpu_hour", 2.1}}}}};
  auto fleet = exec::parse_fleet(doc, "large.json");
  REQUIRE(fleet.ok());
  TestServerOptions options;
  options.fleet = *fleet;
  return options;
}

std::vector<std::string> ids_of(const Json& nodes) {
  std::vector<std::string> ids;
  for (const auto& node : nodes) ids.push_back(node.at("node_id").get<std::string>());
  return ids;
}

}  // namespace

TEST_CASE("api nodes: the whole list of a large fleet arrives as one JSON document", "[api][nodes]") {
  TestServer server(large_fleet());
  auto reply = server.get("/v1/nodes");
  REQUIRE(reply.status == 200);
  CHECK_THAT(reply.header("Content-Type"), Catch::Contains("application/json"));
  auto ids = ids_of(reply.json.at("nodes"));
  CHECK(ids.size() == k_nodes);
  CHECK(std::set<std::string>(ids.begin(), ids.end()).size() == k_nodes);
  CHECK(ids.front() == "node_big-1");
  CHECK(ids.back() == "node_big-" + std::to_string(k_nodes));
}

TEST_CASE("api nodes: limit and cursor page through the fleet in order", "[api][nodes]") {
  TestServer server(large_fleet());
  auto whole = server.get("/v1/nodes");
  auto expected = ids_of(whole.json.at("nodes"));
  std::vector<std::string> paged;
  std::string cursor = "0";
  int pages = 0;
  while (true) {
    auto reply = server.get("/v1/nodes?limit=1000&cursor=" + cursor);
    REQUIRE(reply.status == 200);
    CHECK(reply.json["total"] == k_nodes);
    auto ids = ids_of(reply.json.at("nodes"));
    paged.insert(paged.end(), ids.begin(), ids.end());
    ++pages;
    if (!reply.json["has_more"].get<bool>()) {
      CHECK(reply.json["next_cursor"].is_null());
      break;
    }
    cursor = reply.json["next_cursor"].get<std::string>();
  }
  CHECK(pages == 3);
  CHECK(paged == expected);
  auto past = server.get("/v1/nodes?limit=5&cursor=99999");
  CHECK(past.json["nodes"].empty());
  CHECK(past.json["has_more"] == false);
}

TEST_CASE("api nodes: a bad limit or cursor is a 400 naming it", "[api][nodes]") {
  TestServer server;
  for (std::string bad : {"limit=many", "cursor=-1", "cursor=abc"}) {
    INFO(bad);
    auto reply = server.get("/v1/nodes?" + bad);
    CHECK(reply.status == 400);
    CHECK(reply.json["error"]["code"] == "INVALID_REQUEST");
    CHECK_THAT(reply.json["error"]["message"].get<std::string>(), Catch::Contains(bad.substr(0, bad.find('='))));
  }
}
