#include "jgrid/exec/faults.hpp"

#include <catch2/catch.hpp>

using namespace jgrid;
using namespace jgrid::exec;
using Json = nlohmann::json;

namespace {

model::Node node(std::string name, std::string pool) {
  model::Node n;
  n.name = std::move(name);
  n.id = "node_" + n.name;
  n.pool = std::move(pool);
  return n;
}

}  // namespace

TEST_CASE("faults::decode_fault_rule reads a rule and names the bad field", "[exec][faults]") {
  auto rule = decode_fault_rule(Json{{"target", {{"node", "mi300x-east-2"}}}, {"effect", "exit_code"}, {"value", 3},
                                     {"probability", 0.5}, {"count", 2}});
  REQUIRE(rule.ok());
  CHECK(rule->node == "mi300x-east-2");
  CHECK(*rule->value == 3);
  CHECK(*rule->count == 2);
  auto json = fault_to_json(*rule);
  CHECK(json["target"] == Json{{"node", "mi300x-east-2"}});

  CHECK_THAT(decode_fault_rule(Json{{"effect", "boom"}}).error().message, Catch::StartsWith("effect: expected one of node_lost"));
  CHECK_THAT(decode_fault_rule(Json{{"effect", "oom"}, {"probability", 2}}).error().message,
             Catch::StartsWith("probability: expected a number between 0 and 1"));
  CHECK_THAT(decode_fault_rule(Json{{"effect", "oom"}, {"count", 0}}).error().message, Catch::StartsWith("count: expected"));
  CHECK_THAT(decode_fault_rule(Json{{"effect", "oom"}, {"target", {{"node", "a"}, {"pool", "b"}}}}).error().message,
             Catch::StartsWith("target: expected one of node, pool, job or any"));
  CHECK(decode_fault_rule(Json{{"target", {{"any", true}}}}).error().code == "INVALID_REQUEST");
}

TEST_CASE("faults::FaultBook fires matching rules within their count", "[exec][faults]") {
  FaultBook book;
  FaultRule lost;
  lost.pool = "east";
  lost.effect = "node_lost";
  lost.after_s = 10;
  lost.count = 1;
  auto added = book.add(lost);
  CHECK(added.id == "flt_1");
  FaultRule slow;
  slow.job = "job_a";
  slow.effect = "slow";
  book.add(slow);

  auto west = book.draw(node("w-1", "west"), "job_b", nullptr, 1);
  CHECK(west.interrupt.empty());
  CHECK(west.slow_factor == 1.0);
  auto east = book.draw(node("e-1", "east"), "job_a", nullptr, 1);
  CHECK(east.interrupt == "node_lost");
  CHECK(*east.interrupt_after_s == 10);
  CHECK(east.slow_factor == 2.0);
  CHECK(book.draw(node("e-1", "east"), "job_c", nullptr, 1).interrupt.empty());  // count used up
  CHECK(book.list()[0].fired == 1);
  CHECK(book.remove("flt_2"));
  CHECK_FALSE(book.remove("flt_2"));
  book.clear();
  CHECK(book.list().empty());
}

TEST_CASE("faults::FaultBook draws pool rates the same way for the same seed", "[exec][faults]") {
  FaultBook book;
  PoolFaults pool;
  pool.start_error_rate = 0.5;
  int failures = 0;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    bool first = book.draw(node("p-1", "p"), "job", &pool, seed).fail_start;
    CHECK(first == book.draw(node("p-1", "p"), "job", &pool, seed).fail_start);
    failures += first;
  }
  CHECK(failures > 50);
  CHECK(failures < 150);
  RunFaults certain;
  PoolFaults lossy;
  lossy.node_lost_per_hour = 1000;
  draw_pool_interrupt(certain, lossy, "lossy", 3600, 1);
  CHECK(certain.interrupt == "node_lost");
  CHECK(certain.rules == std::vector<std::string>{"pool:lossy:node_lost"});
  CHECK(*certain.interrupt_after_s < 3600);
}
