// api::match_route over the route table: families, captures, 404 and 405.
#include <catch2/catch.hpp>

#include "api/route_table.hpp"

using jgrid::api::match_route;
using jgrid::api::routes;

TEST_CASE("api::match_route finds plain and mcp routes with decoded captures", "[api][routes]") {
  auto plain = match_route("GET", "/v1/jobs/job%2F1/logs/");
  REQUIRE(plain.ok());
  CHECK(plain->route->pattern == "/v1/jobs/{id}/logs");
  CHECK(plain->route->framing == jgrid::model::Framing::plain);
  CHECK(plain->captures == std::vector<std::string>{"job/1"});

  auto mcp = match_route("POST", "/v1/mcp/jobs/j1/artifacts/a%201/download");
  REQUIRE(mcp.ok());
  CHECK(mcp->route->framing == jgrid::model::Framing::envelope);
  CHECK(mcp->captures == std::vector<std::string>{"j1", "a 1"});

  auto head = match_route("HEAD", "/v1/nodes");
  REQUIRE(head.ok());
  CHECK(head->route->method == "GET");

  auto rest = match_route("GET", "/ui/js/app.js");
  REQUIRE(rest.ok());
  CHECK(rest->captures == std::vector<std::string>{"js/app.js"});
}

TEST_CASE("api::match_route tells unknown paths from wrong methods", "[api][routes]") {
  CHECK(match_route("GET", "/v1/nothing").error().code == "NOT_FOUND");
  CHECK(match_route("GET", "/v1//jobs").error().code == "NOT_FOUND");
  auto wrong = match_route("DELETE", "/v1/jobs/j1");
  CHECK(wrong.error().code == "METHOD_NOT_ALLOWED");
  CHECK(wrong.error().message == "method DELETE not allowed here; allowed: GET, HEAD");
  CHECK(match_route("GET", "/v1/jobs/%4").error().code == "INVALID_REQUEST");
}

TEST_CASE("api route table serves the mcp family only where docs/api.md lists it", "[api][routes]") {
  std::vector<std::string> mcp;
  for (const auto& route : routes())
    if (route.framing == jgrid::model::Framing::envelope) mcp.push_back(route.method + " " + route.pattern);
  CHECK(mcp == std::vector<std::string>{
                   "POST /v1/mcp/jobs/estimate", "POST /v1/mcp/jobs", "GET /v1/mcp/jobs", "GET /v1/mcp/jobs/{id}",
                   "POST /v1/mcp/jobs/{id}/cancel", "GET /v1/mcp/jobs/{id}/logs", "GET /v1/mcp/jobs/{id}/artifacts",
                   "POST /v1/mcp/jobs/{id}/artifacts/{aid}/download"});
}
