#include "route/scoring.hpp"

#include "route_fixtures.hpp"

namespace {

using jgrid::model::JobSpec;
using jgrid::route::make_demand;
using jgrid::route::score_node;
using jgrid::test::intent_for;
using jgrid::test::make_node;
using jgrid::test::make_spec;

double score(const JobSpec& spec, const jgrid::model::Node& node) {
  auto intent = intent_for("amd");
  return score_node(make_demand(spec, intent), node);
}

}  // namespace

TEST_CASE("route::score_node in balanced mode: bin-packing beats preferences beat price", "[route]") {
  JobSpec spec = make_spec();
  spec.constraints = {{"region_preference", "us-west"}};
  auto packed = make_node("p", "amd", 8, 9.0);
  packed.gpus_free = 1;
  auto west = make_node("w", "amd", 8, 3.0);
  west.region = "us-west";
  auto cheap = make_node("c", "amd", 8, 0.5);
  CHECK(score(spec, packed) > score(spec, west));
  CHECK(score(spec, west) > score(spec, cheap));
}

TEST_CASE("route::score_node in cost mode: price first, preferences between near-equal prices", "[route]") {
  JobSpec spec = make_spec();
  spec.optimize_for = "cost";
  spec.constraints = {{"preferred_gpu_family", "radeon"}};
  auto instinct = make_node("i", "amd", 8, 2.00);
  auto radeon = make_node("r", "amd", 8, 2.05);
  radeon.gpu_family = "radeon";
  auto expensive_radeon = radeon;
  expensive_radeon.price_per_gpu_hour = 3.0;
  CHECK(score(spec, radeon) > score(spec, instinct));
  CHECK(score(spec, instinct) > score(spec, expensive_radeon));
}

TEST_CASE("route::score_node in speed mode: class, then speed, then queue", "[route]") {
  JobSpec spec = make_spec();
  spec.optimize_for = "speed";
  auto datacenter = make_node("d", "amd", 8);
  auto workstation = make_node("w", "amd", 8);
  workstation.gpu_class = "workstation";
  workstation.speed = 3.0;
  auto busy = datacenter;
  busy.gpus_free = 4;
  busy.running_jobs = 4;
  auto fast_busy = busy;
  fast_busy.speed = 1.3;  // +30 for speed against -20 for four running jobs
  CHECK(score(spec, datacenter) > score(spec, workstation));
  CHECK(score(spec, datacenter) > score(spec, busy));
  CHECK(score(spec, fast_busy) > score(spec, datacenter));
}

TEST_CASE("route::placement_reason names the mode's criterion and the preferences met", "[route]") {
  JobSpec spec = make_spec(2);
  spec.constraints = {{"region_preference", "us-east"}};
  auto intent = intent_for("amd");
  auto demand = make_demand(spec, intent);
  auto node = make_node("m", "amd", 8, 2.1);
  node.gpus_free = 6;
  CHECK(jgrid::route::placement_reason(demand, node, 3) ==
        "balanced: leaves 4 of 8 GPUs free at $2.10/GPU-hour; preferred region us-east; best of 3 feasible nodes");
  spec.optimize_for = "cost";
  CHECK(jgrid::route::placement_reason(make_demand(spec, intent), node, 1) ==
        "cost: $2.10/GPU-hour; preferred region us-east; best of 1 feasible node");
}
