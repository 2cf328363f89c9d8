#include "jgrid/exec/fleet_document.hpp"

#include <catch2/catch.hpp>
#include <string>

using namespace jgrid;
using namespace jgrid::exec;
using Json = nlohmann::json;

namespace {

std::string example(const std::string& name) { return std::string(JGRID_SOURCE_DIR) + "/examples/fleets/" + name; }

FleetDocument mixed_cloud() {
  auto document = read_fleet_document({example("mixed-cloud.yaml")});
  REQUIRE(document.ok());
  return document.value();
}

long long pool_nodes(const Fleet& fleet, const std::string& pool) {
  return std::count_if(fleet.nodes.begin(), fleet.nodes.end(), [&](const model::Node& n) { return n.pool == pool; });
}

}  // namespace

TEST_CASE("fleet_document::build_fleet gives the fleet load_fleet_files gives", "[exec][fleet_document]") {
  auto built = build_fleet(mixed_cloud());
  auto loaded = load_fleet_files({example("mixed-cloud.yaml")});
  REQUIRE(built.ok());
  REQUIRE(loaded.ok());
  CHECK(built->nodes.size() == loaded->nodes.size());
  CHECK(built->faults.size() == loaded->faults.size());
  CHECK(pool_nodes(*built, "mi300x-east") == 4);
}

TEST_CASE("fleet_document::read_fleet_document: none, built-in, and images over the built-in fleet",
          "[exec][fleet_document]") {
  CHECK(read_fleet_document({"none"})->sources.empty());
  CHECK(build_fleet(read_fleet_document({"none"}).value())->nodes.empty());
  auto builtin = read_fleet_document({});
  REQUIRE(builtin->sources.size() == 1);
  CHECK(build_fleet(*builtin)->nodes.size() == default_fleet().nodes.size());
  auto images = read_fleet_document({example("images-only.yaml")});
  REQUIRE(images.ok());
  REQUIRE(images->sources.size() == 2);
  CHECK(images->sources[1].builtin);
  REQUIRE(set_fleet_value(*images, "pools.mi300x-east.count", "5").ok());
  auto fleet = build_fleet(*images);
  REQUIRE(fleet.ok());
  CHECK(pool_nodes(*fleet, "mi300x-east") == 5);
  CHECK(read_fleet_document({example("missing.yaml")}).error().code == "INVALID_FLEET");
}

TEST_CASE("fleet_document::set_fleet_value changes a pool by name or index, and creates absent members",
          "[exec][fleet_document]") {
  FleetDocument document = mixed_cloud();
  REQUIRE(set_fleet_value(document, "pools.mi300x-east.count", "9").ok());
  REQUIRE(set_fleet_value(document, "pools.1.price_per_gpu_hour", "0.95").ok());
  REQUIRE(set_fleet_value(document, "pools.h100-west.faults.node_lost_per_hour", "0.5").ok());
  REQUIRE(set_fleet_value(document, "seed", "7").ok());
  REQUIRE(set_fleet_value(document, "images.ghcr.io/acme/pytorch-rocm:latest.size_mb", "100").ok());
  const Json& doc = document.sources[0].doc;
  CHECK(doc["pools"][0]["count"] == 9);
  CHECK(doc["pools"][1]["price_per_gpu_hour"] == 0.95);
  CHECK(doc["pools"][3]["faults"]["node_lost_per_hour"] == 0.5);
  CHECK(doc["images"][0]["size_mb"] == 100);
  auto fleet = build_fleet(document);
  REQUIRE(fleet.ok());
  CHECK(fleet->seed == 7);
  CHECK(pool_nodes(*fleet, "mi300x-east") == 9);
  CHECK(fleet->faults.at("h100-west").node_lost_per_hour == 0.5);
}

TEST_CASE("fleet_document::set_fleet_value names the path and what was expected", "[exec][fleet_document]") {
  FleetDocument document = mixed_cloud();
  Json before = document.sources[0].doc;
  auto message = [&](const std::string& path, const std::string& value) {
    auto set = set_fleet_value(document, path, value);
    REQUIRE_FALSE(set.ok());
    CHECK(set.error().code == "INVALID_SWEEP");
    return set.error().message;
  };
  CHECK(message("pools.mi300x-eats.count", "2") ==
        "pools.mi300x-eats.count: no pool mi300x-eats in the fleet (pools: mi300x-east, mi250-central, w7900-west, "
        "h100-west, l4-central)");
  CHECK(message("pools.mi300x-east.count", "2.5") == "pools.mi300x-east.count: expected an integer, got \"2.5\"");
  CHECK(message("pools.mi300x-east.price_per_gpu_hour", "cheap") ==
        "pools.mi300x-east.price_per_gpu_hour: expected a number, got \"cheap\"");
  CHECK_THAT(message("pools.mi300x-east.cout", "2"),
             Catch::StartsWith("pools.mi300x-east.cout: not a setting a sweep can change; expected one of seed, "
                               "pools.<pool>.count,"));
  CHECK_THAT(message("pools.mi300x-east.gpu.model", "MI325X"), Catch::Contains("not a setting a sweep can change"));
  CHECK_THAT(message("pools.mi300x-east", "2"), Catch::Contains("not a setting a sweep can change"));
  CHECK_THAT(message("clock.mode", "virtual"), Catch::Contains("not a setting a sweep can change"));
  CHECK_THAT(message("pools..count", "2"), Catch::Contains("expected a dotted path"));
  CHECK(message("pools.9.count", "2") ==
        "pools.9.count: no pool 9 in the fleet (pools: mi300x-east, mi250-central, w7900-west, h100-west, l4-central)");
  CHECK(document.sources[0].doc == before);
}

TEST_CASE("fleet_document::set_fleet_value leaves range checks to build_fleet", "[exec][fleet_document]") {
  FleetDocument document = mixed_cloud();
  REQUIRE(set_fleet_value(document, "pools.mi300x-east.count", "-1").ok());
  auto fleet = build_fleet(document);
  REQUIRE_FALSE(fleet.ok());
  CHECK_THAT(fleet.error().message, Catch::EndsWith("mixed-cloud.yaml: pools[0].count: expected an integer >= 0 and <= 100000, got -1"));
}

TEST_CASE("fleet_document::sweepable_settings lists the patterns", "[exec][fleet_document]") {
  CHECK_THAT(sweepable_settings(), Catch::StartsWith("seed, pools.<pool>.count, pools.<pool>.price_per_gpu_hour"));
  CHECK_THAT(sweepable_settings(), Catch::EndsWith("images.<image>.size_mb"));
}
