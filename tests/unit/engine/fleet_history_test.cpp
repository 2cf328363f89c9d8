#include "jgrid/engine/fleet_history.hpp"

#include "engine/job_queue.hpp"
#include "engine/node_pool.hpp"
#include "engine_fixture.hpp"

using jgrid::engine::FleetHistory;
using jgrid::engine::FleetSeries;
using jgrid::test::ManualClock;
using jgrid::test::make_node;
using V = std::vector<std::int64_t>;

namespace {

constexpr std::int64_t k_start = 1'780'000'000'000;  // ManualClock's origin, a multiple of 5 s

jgrid::model::Node pooled(const std::string& name, const std::string& pool, int gpus) {
  auto node = make_node(name, "amd", gpus);
  node.pool = pool;
  return node;
}

V offsets(const FleetSeries& series) {
  V out;
  for (auto t : series.t_ms) out.push_back(t - k_start);
  return out;
}

}  // namespace

TEST_CASE("engine::FleetHistory samples the level that held at each multiple of the interval", "[engine]") {
  ManualClock clock;
  auto a = pooled("a1", "a", 4), b = pooled("b1", "b", 2);
  FleetHistory history(clock, {a, pooled("a2", "a", 4), b}, 1000, 100);
  clock.advance(500);
  history.add_queued(2);
  history.add_running(a, 3);
  clock.advance(1000);  // 1.5 s: the sample at 1 s holds what happened at 0.5 s
  history.add_queued(-1);
  history.add_running(b, 2);
  clock.advance(1500);  // 3 s, on the grid: no extra sample at now
  FleetSeries series = history.read();
  CHECK(series.pools == std::vector<std::string>{"a", "b"});
  CHECK(series.interval_ms == 1000);
  CHECK(offsets(series) == V{0, 1000, 2000, 3000});
  CHECK(series.queued == V{0, 2, 1, 1});
  CHECK(series.running_gpus[0] == V{0, 3, 3, 3});
  CHECK(series.running_gpus[1] == V{0, 0, 2, 2});
  CHECK(series.total_gpus[0] == V{8, 8, 8, 8});
  CHECK(series.total_gpus[1] == V{2, 2, 2, 2});
}

TEST_CASE("engine::FleetHistory applies changes at a grid time to that time's sample", "[engine]") {
  ManualClock clock;
  auto a = pooled("a1", "a", 4);
  FleetHistory history(clock, {a}, 1000, 100);
  clock.advance(1000);
  history.add_running(a, 1);
  history.add_running(a, 1);
  clock.advance(1);  // the sample at 1 s is stored now, after both changes
  history.add_running(a, -2);
  clock.advance(499);
  FleetSeries series = history.read();
  CHECK(offsets(series) == V{0, 1000, 1500});  // and one at now
  CHECK(series.running_gpus[0] == V{0, 2, 0});
}

TEST_CASE("engine::FleetHistory keeps the newest samples and skips long quiet spells", "[engine]") {
  ManualClock clock;
  auto a = pooled("a1", "a", 1);
  FleetHistory history(clock, {a}, 1000, 5);
  for (int i = 1; i <= 7; ++i) {
    clock.advance(1000);
    history.add_queued(1);  // sample at i s holds i jobs queued
  }
  clock.advance(1);
  history.add_queued(0);
  FleetSeries series = history.read();
  CHECK(offsets(series) == V{3000, 4000, 5000, 6000, 7000, 7001});  // the ring's 5, then now
  CHECK(series.queued == V{3, 4, 5, 6, 7, 7});

  clock.advance(1'000'000'000);  // far beyond the ring: read fills in only the last 5
  series = history.read();
  REQUIRE(series.t_ms.size() == 6);
  CHECK(series.t_ms.back() == clock.now_ms());
  CHECK(series.t_ms[4] - series.t_ms[0] == 4000);
  CHECK(series.queued == V{7, 7, 7, 7, 7, 7});
  history.add_queued(-7);  // stores those 5, nothing more
  series = history.read();
  CHECK(series.t_ms.size() == 6);
  CHECK(series.queued.back() == 0);
  CHECK(series.queued.front() == 7);
}

TEST_CASE("engine::FleetHistory counts nodes that are not offline, and clear keeps the level", "[engine]") {
  ManualClock clock;
  auto a = pooled("a1", "a", 4), down = pooled("a2", "a", 4), solo = make_node("solo", "nvidia", 8);
  down.status = jgrid::model::NodeStatus::offline;
  FleetHistory history(clock, {a, down, solo}, 1000, 100);
  CHECK(history.read().pools == std::vector<std::string>{"a", "solo"});  // no pool: its own name
  CHECK(history.read().total_gpus[0] == V{4});
  history.add_total(down, 4);
  history.add_running(make_node("unknown", "amd", 2), 2);  // ignored
  clock.advance(2500);
  history.clear();
  FleetSeries series = history.read();
  CHECK(offsets(series) == V{2500});
  CHECK(series.total_gpus[0] == V{8});
  CHECK(series.running_gpus[1] == V{0});
}

TEST_CASE("engine::FleetHistory is fed by the queue and the node pool", "[engine]") {
  ManualClock clock;
  auto a = pooled("a1", "a", 4);
  FleetHistory history(clock, {a}, 1000, 100);
  jgrid::engine::JobQueue queue;
  jgrid::engine::NodePool pool({a}, 42);
  queue.watch(&history);
  pool.watch(&history);
  queue.push("job_1", "balanced");
  queue.push("job_1", "balanced");  // already queued: no change
  queue.push("job_2", "high");
  auto gpus = pool.reserve("node_a1", 3);
  queue.remove("job_1");
  queue.remove("job_1");  // not queued any more: no change
  CHECK(history.read().queued.back() == 1);
  CHECK(history.read().running_gpus[0].back() == 3);
  pool.release("node_a1", gpus);
  pool.set_status("node_a1", jgrid::model::NodeStatus::draining);  // still counted
  CHECK(history.read().total_gpus[0].back() == 4);
  pool.set_status("node_a1", jgrid::model::NodeStatus::offline);
  pool.set_status("node_a1", jgrid::model::NodeStatus::offline);
  CHECK(history.read().total_gpus[0].back() == 0);
  CHECK(pool.take("node_a1", {0, 1}));
  pool.set_status("node_a1", jgrid::model::NodeStatus::online);
  FleetSeries series = history.read();
  CHECK(series.running_gpus[0].back() == 2);
  CHECK(series.total_gpus[0].back() == 4);
}
