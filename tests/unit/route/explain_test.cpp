#include "route/explain.hpp"

#include "route_fixtures.hpp"

namespace {

using jgrid::route::FleetIndex;
using jgrid::route::make_demand;
using jgrid::route::summarize_fleet;
using jgrid::test::intent_for;
using jgrid::test::make_node;
using jgrid::test::make_spec;

}  // namespace

TEST_CASE("route::ReasonCounts lists the most frequent reason first, then in first-seen order", "[route]") {
  jgrid::route::ReasonCounts counts;
  CHECK(counts.empty());
  counts.add("b", 1);
  counts.add("a", 2);
  counts.add("c", 1);
  counts.add("b", 1);
  CHECK(counts.text() == "2 nodes: b; 2 nodes: a; 1 node: c");
}

TEST_CASE("route::summarize_fleet counts nodes by first reason without listing them", "[route]") {
  std::vector<jgrid::model::Node> nodes;
  for (int i = 0; i < 3; ++i) nodes.push_back(make_node("h" + std::to_string(i), "nvidia", 8));
  for (int i = 0; i < 4; ++i) nodes.push_back(make_node("m" + std::to_string(i), "amd", 8));
  nodes[3].gpus_free = 0;
  nodes[4].gpus_free = 0;
  nodes[5].status = jgrid::model::NodeStatus::offline;
  FleetIndex fleet(nodes, 1);
  auto intent = intent_for("amd");
  auto spec = make_spec();
  auto demand = make_demand(spec, intent);
  CHECK(summarize_fleet(demand, fleet, nullptr) ==
        "3 nodes: vendor nvidia ≠ amd; 2 nodes: 0 of 8 GPUs free; 1 node: node is offline");
  std::set<std::uint32_t> held = {fleet.class_of(6)};
  CHECK(summarize_fleet(demand, fleet, &held) ==
        "3 nodes: vendor nvidia ≠ amd; 2 nodes: 0 of 8 GPUs free; 1 node: node is offline; "
        "1 node: held for an earlier waiting job");
}

TEST_CASE("route::explain names an empty fleet and a missing stack", "[route]") {
  auto intent = intent_for("nvidia");
  auto spec = make_spec();
  auto demand = make_demand(spec, intent);
  jgrid::route::RouteResult result;
  CHECK(jgrid::route::explain(result, demand, FleetIndex{}) == "no node in the fleet: add capacity");
  FleetIndex amd_only({make_node("m", "amd", 8)}, 1);
  CHECK(jgrid::route::explain(result, demand, amd_only) ==
        "no NVIDIA/CUDA node in the fleet: declare a different route or add capacity");
}
