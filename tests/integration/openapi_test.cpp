// docs/api.md §2.11 /openapi.json: every registered route is in the document and
// every documented operation is a registered route.
#include <set>

#include "api/route_table.hpp"
#include "test_server.hpp"

using jgrid::test::Json;
using jgrid::test::TestServer;

namespace {

std::string lower(std::string text) {
  for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// The route table writes a rest-of-path capture as {*}; OpenAPI names it.
std::string openapi_path(std::string pattern) {
  auto star = pattern.find("{*}");
  if (star != std::string::npos) pattern.replace(star, 3, "{path}");
  return pattern;
}

}  // namespace

TEST_CASE("api /openapi.json documents exactly the registered routes", "[api][openapi]") {
  TestServer server;
  auto reply = server.get("/openapi.json");
  REQUIRE(reply.status == 200);
  const Json& doc = reply.json;
  REQUIRE(doc["openapi"] == "3.1.0");

  std::set<std::string> registered, documented;
  for (const auto& route : jgrid::api::routes())
    registered.insert(lower(route.method) + " " + openapi_path(route.pattern));
  for (const auto& [path, item] : doc["paths"].items())
    for (const auto& [method, operation] : item.items()) documented.insert(method + " " + path);

  for (const auto& route : registered) {
    INFO("registered but not documented: " << route);
    CHECK(documented.count(route) == 1);
  }
  for (const auto& operation : documented) {
    INFO("documented but not registered: " << operation);
    CHECK(registered.count(operation) == 1);
  }
}

TEST_CASE("api /openapi.json references only schemas it defines, and mcp routes are enveloped", "[api][openapi]") {
  TestServer server;
  const Json doc = server.get("/openapi.json").json;
  std::string text = doc.dump();
  for (std::size_t at = text.find("#/components/schemas/"); at != std::string::npos;
       at = text.find("#/components/schemas/", at + 1)) {
    auto start = at + std::string("#/components/schemas/").size();
    std::string name = text.substr(start, text.find('"', start) - start);
    INFO(name);
    CHECK(doc["components"]["schemas"].contains(name));
  }
  const Json& mcp = doc["paths"]["/v1/mcp/jobs/{id}"]["get"]["responses"]["200"]["content"]["application/json"]["schema"];
  CHECK(mcp["properties"]["ok"]["const"] == true);
  CHECK(mcp["properties"]["data"]["$ref"] == "#/components/schemas/JobMcp");
  CHECK(doc["paths"]["/v1/jobs/{id}"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]["$ref"] ==
        "#/components/schemas/Job");
}
