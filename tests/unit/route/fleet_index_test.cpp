#include "jgrid/route/fleet_index.hpp"

#include "route_fixtures.hpp"

namespace {

using jgrid::model::NodeStatus;
using jgrid::route::FleetIndex;
using jgrid::test::make_node;

std::size_t bucket_size(const FleetIndex& fleet, std::size_t slot, int free, int running) {
  const auto& node_class = fleet.classes()[fleet.class_of(slot)];
  return node_class.buckets[node_class.bucket_index(free, running)].size();
}

}  // namespace

TEST_CASE("route::FleetIndex groups nodes with the same description into one class", "[route]") {
  std::vector<jgrid::model::Node> nodes = {make_node("a1", "amd", 8, 2.0), make_node("h1", "nvidia", 8),
                                           make_node("a2", "amd", 8, 2.0), make_node("a3", "amd", 4)};
  FleetIndex fleet(nodes, 7);
  REQUIRE(fleet.classes().size() == 3);
  CHECK(fleet.class_of(0) == fleet.class_of(2));
  CHECK(fleet.class_of(0) != fleet.class_of(3));  // another GPU count
  CHECK(fleet.classes()[fleet.class_of(0)].slots == std::vector<std::size_t>{0, 2});
  CHECK(fleet.classes_of_vendor("amd") == std::vector<std::uint32_t>{0, 2});
  CHECK(fleet.classes_of_vendor("nvidia") == std::vector<std::uint32_t>{1});
  CHECK(fleet.classes_of_vendor("").size() == 3);
  CHECK(fleet.classes_of_vendor("intel").empty());
  CHECK(fleet.slot_of("node_a2") == 2u);
  CHECK_FALSE(fleet.slot_of("node_zz"));
  CHECK(bucket_size(fleet, 0, 8, 0) == 2);
  CHECK(fleet.tie_hash(0) == jgrid::route::node_hash(7, "node_a1"));
  nodes[2].labels = {{"host", "a2"}};  // labels are per node: they do not split a class
  CHECK(FleetIndex(nodes, 7).classes().size() == 3);
  CHECK(fleet.tie_hash(0) != jgrid::route::node_hash(8, "node_a1"));
}

TEST_CASE("route::FleetIndex keeps prices per node: the cheapest node leads its class and its buckets", "[route]") {
  std::vector<jgrid::model::Node> nodes = {make_node("a1", "amd", 8, 3.0), make_node("a2", "amd", 8, 1.5),
                                           make_node("a3", "amd", 8, 2.0)};
  FleetIndex fleet(nodes, 7);
  REQUIRE(fleet.classes().size() == 1);
  const auto& node_class = fleet.classes()[0];
  CHECK(node_class.prototype == 1u);
  CHECK(node_class.min_price == 1.5);
  CHECK(node_class.max_price == 3.0);
  const auto& bucket = node_class.buckets[node_class.bucket_index(8, 0)];
  std::vector<std::size_t> order;
  for (const auto& entry : bucket) order.push_back(entry.slot);
  CHECK(order == std::vector<std::size_t>{1, 2, 0});
}

TEST_CASE("route::FleetIndex moves nodes between buckets as their load changes", "[route]") {
  FleetIndex fleet({make_node("a1", "amd", 8), make_node("a2", "amd", 8), make_node("h1", "nvidia", 4)}, 7);
  CHECK(fleet.max_free("amd") == 8);
  fleet.set_load(0, 6, 1);
  fleet.set_load(1, 2, 3);
  CHECK(bucket_size(fleet, 0, 8, 0) == 0);
  CHECK(bucket_size(fleet, 0, 6, 1) == 1);
  CHECK(bucket_size(fleet, 1, 2, 3) == 1);
  CHECK(fleet.node(1).gpus_free == 2);
  CHECK(fleet.node(1).running_jobs == 3);
  CHECK(fleet.max_free("amd") == 6);
  CHECK(fleet.max_free("") == 6);
  fleet.set_load(2, 4, 0);
  CHECK(fleet.max_free("nvidia") == 4);
  CHECK(fleet.max_free("intel") == 0);
  fleet.set_load(0, 12, 5);  // clamped to the invariant
  CHECK(fleet.node(0).gpus_free == 8);
  CHECK(fleet.node(0).running_jobs == 0);
}

TEST_CASE("route::FleetIndex takes draining and offline nodes out of the buckets", "[route]") {
  FleetIndex fleet({make_node("a1", "amd", 8), make_node("a2", "amd", 8)}, 7);
  fleet.set_status(0, NodeStatus::draining);
  fleet.set_status(1, NodeStatus::offline);
  const auto& node_class = fleet.classes()[0];
  CHECK(node_class.draining == 1);
  CHECK(node_class.offline == 1);
  CHECK(bucket_size(fleet, 0, 8, 0) == 0);
  CHECK(fleet.max_free("amd") == 0);
  fleet.set_load(0, 4, 1);                // still tracked while out
  fleet.set_status(0, NodeStatus::busy);  // busy counts as online
  CHECK(fleet.node(0).status == NodeStatus::online);
  CHECK(bucket_size(fleet, 0, 4, 1) == 1);
  CHECK(fleet.classes()[0].draining == 0);
  CHECK(fleet.max_free("amd") == 4);
}
