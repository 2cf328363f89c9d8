#include "engine/node_pool.hpp"

#include "engine_fixture.hpp"

using jgrid::engine::NodePool;
using jgrid::test::make_node;

TEST_CASE("engine::NodePool hands out the lowest free GPU indices", "[engine]") {
  NodePool pool({make_node("a", "amd", 4)}, 42);
  CHECK(pool.reserve("node_a", 2) == std::vector<int>{0, 1});
  CHECK(pool.reserve("node_a", 1) == std::vector<int>{2});
  pool.release("node_a", {0, 1});
  CHECK(pool.reserve("node_a", 2) == std::vector<int>{0, 1});
  CHECK(pool.find("node_a")->gpus_free == 1);
  CHECK(pool.find("node_a")->running_jobs == 2);
}

TEST_CASE("engine::NodePool refuses what does not fit and takes nothing", "[engine]") {
  NodePool pool({make_node("a", "amd", 2)}, 42);
  CHECK(pool.reserve("node_a", 3).empty());
  CHECK(pool.reserve("node_missing", 1).empty());
  CHECK(pool.find("node_a")->gpus_free == 2);
  CHECK_FALSE(pool.find("node_missing"));
}

TEST_CASE("engine::NodePool snapshot marks a full online node busy", "[engine]") {
  auto draining = make_node("d", "amd", 1);
  draining.status = jgrid::model::NodeStatus::draining;
  NodePool pool({make_node("a", "amd", 1), draining}, 42);
  (void)pool.reserve("node_a", 1);
  (void)pool.reserve("node_d", 1);
  auto nodes = pool.snapshot();
  REQUIRE(nodes.size() == 2);
  CHECK(nodes[0].status == jgrid::model::NodeStatus::busy);
  CHECK(nodes[0].gpus_free == 0);
  CHECK(nodes[1].status == jgrid::model::NodeStatus::draining);
  pool.release("node_a", {0});
  CHECK(pool.snapshot()[0].status == jgrid::model::NodeStatus::online);
}

TEST_CASE("engine::NodePool keeps the router's index in step with reserve and release", "[engine]") {
  auto busy = make_node("b", "amd", 8);
  busy.gpus_free = 0;  // a fleet file's live state is ignored: every GPU starts free
  NodePool pool({make_node("a", "amd", 4), busy, make_node("h", "nvidia", 8)}, 42);
  const auto& index = pool.index();
  CHECK(index.node(1).gpus_free == 8);
  CHECK(index.max_free("amd") == 8);
  auto taken = pool.reserve("node_b", 6);
  CHECK(index.node(1).gpus_free == 2);
  CHECK(index.node(1).running_jobs == 1);
  CHECK(index.max_free("amd") == 4);
  CHECK(index.max_free("nvidia") == 8);
  pool.release("node_b", taken);
  pool.release("node_b", taken);  // twice: nothing more to give back
  CHECK(index.node(1).gpus_free == 8);
  CHECK(index.node(1).running_jobs == 0);
  const auto& node_class = index.classes()[index.class_of(1)];
  CHECK(node_class.buckets[node_class.bucket_index(8, 0)].size() == 1);
}

TEST_CASE("engine::NodePool counts GPUs held elsewhere as not free, never below ours", "[engine][slurm]") {
  NodePool pool({make_node("a", "amd", 4)}, 42);
  CHECK(pool.reserve("node_a", 1) == std::vector<int>{0});
  CHECK(pool.set_held_elsewhere("node_a", 2));
  CHECK(pool.find("node_a")->gpus_free == 1);
  CHECK(pool.reserve("node_a", 2).empty());  // only one left
  CHECK(pool.reserve("node_a", 1) == std::vector<int>{1});
  CHECK(pool.find("node_a")->gpus_free == 0);
  CHECK(pool.set_held_elsewhere("node_a", 9));  // clamped to what is not ours
  pool.release("node_a", {0, 1});
  CHECK(pool.find("node_a")->gpus_free == 2);
  CHECK(pool.set_held_elsewhere("node_a", 0));
  CHECK(pool.find("node_a")->gpus_free == 4);
  CHECK_FALSE(pool.set_held_elsewhere("node_missing", 1));
}

TEST_CASE("engine::NodePool take() after a restart wins over a stale count held elsewhere", "[engine][slurm]") {
  NodePool pool({make_node("a", "amd", 2)}, 42);
  CHECK(pool.set_held_elsewhere("node_a", 2));
  CHECK(pool.take("node_a", {1}));  // our own run, counted as someone else's before the restart
  CHECK(pool.find("node_a")->gpus_free == 0);
  pool.release("node_a", {1});
  CHECK(pool.find("node_a")->gpus_free == 1);
}
