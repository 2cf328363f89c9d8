#include "cli/sim_sweep.hpp"

#include <catch2/catch.hpp>

using namespace jgrid;
using namespace jgrid::cli;
using Json = nlohmann::json;

namespace {

std::string sweep_error(const std::string& text) {
  auto axis = parse_sweep_axis(text);
  REQUIRE_FALSE(axis.ok());
  CHECK(axis.error().code == "INVALID_SWEEP");
  return axis.error().message;
}

exec::FleetDocument mixed_cloud_document() {
  auto document = exec::read_fleet_document({std::string(JGRID_SOURCE_DIR) + "/examples/fleets/mixed-cloud.yaml"});
  REQUIRE(document.ok());
  return document.value();
}

}  // namespace

TEST_CASE("sim_sweep::parse_sweep_axis reads lists and integer ranges", "[cli][sweep]") {
  auto axis = parse_sweep_axis("pools.mi300x-east.count=2, 4,8..10");
  REQUIRE(axis.ok());
  CHECK(axis->path == "pools.mi300x-east.count");
  CHECK(axis->values == std::vector<std::string>{"2", "4", "8", "9", "10"});
  CHECK(parse_sweep_axis("pools.x.price_per_gpu_hour=0.6,1.2")->values == std::vector<std::string>{"0.6", "1.2"});
  CHECK(parse_sweep_axis("seed=5")->values == std::vector<std::string>{"5"});
}

TEST_CASE("sim_sweep::parse_sweep_axis names the argument and what was expected", "[cli][sweep]") {
  CHECK_THAT(sweep_error("pools.x.count"), Catch::StartsWith("--sweep pools.x.count: expected PATH=VALUE[,VALUE…]"));
  CHECK_THAT(sweep_error("=2"), Catch::Contains("expected PATH=VALUE"));
  CHECK(sweep_error("pools.x.count=") == "--sweep pools.x.count=: expected a value between the commas, got an empty one");
  CHECK(sweep_error("pools.x.count=2,,4") ==
        "--sweep pools.x.count=2,,4: expected a value between the commas, got an empty one");
  CHECK(sweep_error("pools.x.count=9..2") ==
        "--sweep pools.x.count=9..2: expected a range A..B of integers with A <= B, got \"9..2\"");
  CHECK_THAT(sweep_error("pools.x.count=1..5000"), Catch::Contains("expected at most 1000 values"));
}

TEST_CASE("sim_sweep::sweep_points is the cartesian product, first axis slowest", "[cli][sweep]") {
  auto points = sweep_points({SweepAxis{"a", {"1", "2"}}, SweepAxis{"b", {"x", "y", "z"}}});
  REQUIRE(points.ok());
  REQUIRE(points->size() == 6);
  CHECK(point_text((*points)[0]) == "a=1 b=x");
  CHECK(point_text((*points)[2]) == "a=1 b=z");
  CHECK(point_text((*points)[3]) == "a=2 b=x");
  CHECK(sweep_points({})->size() == 1);
  CHECK(sweep_points({})->front().empty());
  CHECK_THAT(sweep_points({SweepAxis{"a", {"1"}}, SweepAxis{"a", {"2"}}}).error().message,
             Catch::Contains("expected each path in one --sweep only"));
  std::vector<std::string> many(40, "1");
  CHECK_THAT(sweep_points({SweepAxis{"a", many}, SweepAxis{"b", many}}).error().message,
             Catch::Contains("more than 1000 points"));
}

TEST_CASE("sim_sweep::point_json types numbers and keeps text", "[cli][sweep]") {
  SweepPoint point{{"pools.p.count", "8"}, {"pools.p.price_per_gpu_hour", "0.95"}, {"pools.p.region", "eu-west"}};
  CHECK(point_json(point) == Json{{"pools.p.count", 8}, {"pools.p.price_per_gpu_hour", 0.95}, {"pools.p.region", "eu-west"}});
}

TEST_CASE("sim_sweep::apply_point edits a copy and names the failing setting", "[cli][sweep]") {
  exec::FleetDocument document = mixed_cloud_document();
  auto applied = apply_point(document, {{"pools.mi300x-east.count", "8"}});
  REQUIRE(applied.ok());
  CHECK(applied->sources[0].doc["pools"][0]["count"] == 8);
  CHECK(document.sources[0].doc["pools"][0]["count"] == 4);
  auto bad = apply_point(document, {{"pools.mi300x-east.count", "8"}, {"pools.nope.count", "1"}});
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error().message, Catch::StartsWith("--sweep pools.nope.count=1: pools.nope.count: no pool nope"));
}
