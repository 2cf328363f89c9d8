#include "route_fixtures.hpp"

using jgrid::route::RouteResult;
using jgrid::test::candidate;
using jgrid::test::make_node;
using jgrid::test::make_spec;
using jgrid::test::place_on;

TEST_CASE("route::report lists every node in fleet order with its reasons and score", "[route]") {
  std::vector<jgrid::model::Node> nodes = {make_node("h", "nvidia", 8), make_node("m1", "amd", 8),
                                           make_node("m2", "amd", 2)};
  nodes[2].gpus_free = 0;
  nodes[2].running_jobs = 1;
  auto result = place_on(make_spec(), "amd", nodes);
  REQUIRE(result.candidates.size() == 3);
  CHECK(result.candidates[0].node_id == "node_h");
  CHECK(result.candidates[0].reasons == std::vector<std::string>{"vendor nvidia ≠ amd"});
  CHECK(result.candidates[0].score == 0);
  CHECK(result.candidates[1].feasible);
  CHECK(result.candidates[1].score > 0);
  CHECK(result.candidates[1].gpu_model == "MI300X");
  CHECK(candidate(result, "node_m2").reasons == std::vector<std::string>{"0 of 2 GPUs free"});
  CHECK(candidate(result, "node_m2").fits_when_empty);
  REQUIRE(result.placement);
  CHECK(result.placement->node_id == "node_m1");
  CHECK(result.placement->score == result.candidates[1].score);
  CHECK(result.filtered == "1 node: vendor nvidia ≠ amd; 1 node: 0 of 2 GPUs free");
}

TEST_CASE("route::place gives the decision of report without the per-node list", "[route]") {
  std::vector<jgrid::model::Node> nodes = {make_node("m1", "amd", 8), make_node("m2", "amd", 8)};
  jgrid::route::FleetIndex fleet(nodes, 3);
  auto spec = make_spec();
  auto intent = jgrid::test::intent_for("amd");
  auto fast = jgrid::route::place({spec, intent}, fleet);
  auto slow = jgrid::route::report({spec, intent}, fleet);
  CHECK(fast.candidates.empty());
  CHECK(slow.candidates.size() == 2);
  REQUIRE(fast.placement);
  CHECK(fast.placement->node_id == slow.placement->node_id);
  CHECK(fast.explanation == slow.explanation);
  CHECK(fast.status == RouteResult::Status::available);
}
