#include "route/filters.hpp"

#include <cstdio>

#include "route_fixtures.hpp"

namespace {

using jgrid::model::JobSpec;
using jgrid::route::description_reasons;
using jgrid::route::fits_description;
using jgrid::route::make_demand;
using jgrid::test::intent_for;
using jgrid::test::make_node;
using jgrid::test::make_spec;

// The description reasons of `node` for `spec` under AMD intent.
std::vector<std::string> refusals(const JobSpec& spec, const jgrid::model::Node& node) {
  auto intent = intent_for("amd");
  auto demand = make_demand(spec, intent);
  CHECK(fits_description(demand, node) == description_reasons(demand, node).empty());
  return description_reasons(demand, node);
}

}  // namespace

TEST_CASE("route filters refuse by vendor, and by runtime only within the vendor", "[route]") {
  auto nvidia = make_node("h", "nvidia", 8);
  CHECK(refusals(make_spec(), nvidia) == std::vector<std::string>{"vendor nvidia ≠ amd"});
  auto cuda_amd = make_node("odd", "amd", 8);
  cuda_amd.runtime = "cuda";
  CHECK(refusals(make_spec(), cuda_amd) == std::vector<std::string>{"runtime cuda ≠ rocm"});
  auto none = intent_for("");
  CHECK(fits_description(make_demand(make_spec(), none), nvidia));
}

TEST_CASE("route filters check GPU count, VRAM, type and class", "[route]") {
  auto node = make_node("m", "amd", 8);
  JobSpec spec = make_spec(16);
  spec.min_vram_gb = 256;
  spec.gpu_type = "mi250";
  spec.gpu_class = "Consumer";
  CHECK(refusals(spec, node) == std::vector<std::string>{"needs 16 GPUs, node has 8",
                                                         "needs 256 GB VRAM per GPU, node has 192 GB",
                                                         "gpu_type mi250 ≠ MI300X", "gpu_class Consumer ≠ datacenter"});
  spec = make_spec(1);
  spec.gpu_type = "mi300x";
  spec.gpu_class = "DataCenter";
  CHECK(refusals(spec, node).empty());
}

TEST_CASE("route filters honour avoided families, strict regions, the price ceiling and node labels", "[route]") {
  auto node = make_node("m", "amd", 8, 2.5);
  node.labels = {{"amd.com/gpu.family", "AI"}};
  JobSpec spec = make_spec(2);
  SECTION("avoid_gpu_families") {
    spec.constraints = {{"avoid_gpu_families", {"Instinct"}}};
    CHECK(refusals(spec, node) == std::vector<std::string>{"gpu family instinct is avoided"});
  }
  SECTION("region_mode strict") {
    spec.constraints = {{"region_preference", {"us-west", "eu-north"}}, {"region_mode", "strict"}};
    CHECK(refusals(spec, node) == std::vector<std::string>{"region us-east not in region_preference (strict)"});
    spec.constraints["region_preference"] = "US-EAST";
    CHECK(refusals(spec, node).empty());
    spec.constraints = {{"region_preference", "us-west"}};  // prefer: a score bonus, not a filter
    CHECK(refusals(spec, node).empty());
  }
  SECTION("max_price_per_hour is the job's hourly rate") {
    spec.constraints = {{"max_price_per_hour", 4.0}};
    CHECK(refusals(spec, node) == std::vector<std::string>{"price $5.00/hour for 2 GPUs > max_price_per_hour $4.00"});
    spec.constraints = {{"max_price_per_hour", 5.0}};
    CHECK(refusals(spec, node).empty());
  }
  SECTION("node_labels") {
    spec.constraints = {{"node_labels", {{"amd.com/gpu.family", "AI"}}}};
    CHECK(refusals(spec, node).empty());
    spec.constraints = {{"node_labels", {{"amd.com/gpu.family", "Graphics"}}}};
    CHECK(refusals(spec, node) == std::vector<std::string>{"node label amd.com/gpu.family=Graphics missing"});
  }
}

TEST_CASE("route state reasons: status, then free GPUs, then held", "[route]") {
  auto node = make_node("m", "amd", 8);
  node.status = jgrid::model::NodeStatus::draining;
  node.gpus_free = 1;
  auto intent = intent_for("amd");
  auto demand = make_demand(make_spec(2), intent);
  CHECK(jgrid::route::state_reasons(demand, node, true) ==
        std::vector<std::string>{"node is draining", "1 of 8 GPUs free", "held for an earlier waiting job"});
  node.status = jgrid::model::NodeStatus::online;
  node.gpus_free = 8;
  CHECK(jgrid::route::state_reasons(demand, node, false).empty());
  auto too_big = make_demand(make_spec(16), intent);
  CHECK(jgrid::route::state_reasons(too_big, node, false).empty());  // a never reason says it already
}

TEST_CASE("route::make_demand reads VRAM needs and the mode", "[route]") {
  JobSpec spec = make_spec(2);
  spec.model_size_gb = 100;
  spec.min_vram_gb = 40;
  spec.optimize_for = "unknown";
  auto intent = intent_for("amd");
  auto demand = make_demand(spec, intent);
  CHECK(demand.vram_per_gpu == Approx(60));
  CHECK(demand.mode == "balanced");
  CHECK(jgrid::route::format_number(1.5) == "1.5");
  CHECK(jgrid::route::format_usd(2.1) == "$2.10");
}

TEST_CASE("route::format_usd prints what printf's %.2f prints, halves and large sums included", "[route]") {
  for (double value : {0.0, 0.005, 0.015, 0.125, 1.005, 2.675, 16.8, 1234.565, 99999.995, 1e9 + 0.5, 3.0 * 2.9}) {
    char expected[64];
    std::snprintf(expected, sizeof expected, "$%.2f", value);
    CHECK(jgrid::route::format_usd(value) == expected);
  }
}
