#include <catch2/catch.hpp>

#include "jgrid/exec/fleet.hpp"

using namespace jgrid;
using namespace jgrid::exec;
using Json = nlohmann::json;

namespace {

Json pool(const std::string& name, const std::string& vendor = "amd") {
  return Json{{"name", name},
              {"count", 2},
              {"region", "us-east"},
              {"gpu", {{"vendor", vendor}, {"model", vendor == "amd" ? "MI300X" : "H100"}, {"count", 8},
                       {"vram_gb", 192}}},
              {"price_per_gpu_hour", 2.1}};
}

Json fleet_doc() { return Json{{"seed", 7}, {"pools", {pool("mi300x-east"), pool("h100-west", "nvidia")}}}; }

std::string error_of(const Json& doc) {
  auto fleet = parse_fleet(doc, "fleet.json");
  REQUIRE_FALSE(fleet.ok());
  CHECK(fleet.error().code == "INVALID_FLEET");
  return fleet.error().message;
}

}  // namespace

TEST_CASE("fleet::parse_fleet expands pools into named nodes", "[exec][fleet]") {
  auto fleet = parse_fleet(fleet_doc(), "fleet.json");
  REQUIRE(fleet.ok());
  CHECK(fleet->seed == 7);
  REQUIRE(fleet->nodes.size() == 4);
  const model::Node& node = fleet->nodes[1];
  CHECK(node.name == "mi300x-east-2");
  CHECK(node.id == "node_mi300x-east-2");
  CHECK(node.pool == "mi300x-east");
  CHECK(node.source == "simulated");
  CHECK(node.gpus_free == 8);
  CHECK(node.gpu_family == "instinct");  // derived from an MI model
  CHECK(node.runtime == "rocm");
  CHECK(fleet->nodes[2].runtime == "cuda");
  CHECK(fleet->nodes[2].runtime_version == "12.4");
}

TEST_CASE("fleet::parse_fleet reads images, clock and startup", "[exec][fleet]") {
  Json doc = fleet_doc();
  doc["clock"] = {{"mode", "virtual"}, {"scale", 60}};
  doc["images"] = Json::array({{{"ref", "rocm/pytorch:latest"}, {"env", {{"ROCM_VERSION", "6.2"}}},
                                {"size_mb", 1200}, {"sim", {{"duration_s", 3}}}}});
  doc["pools"][0]["startup"] = {{"provision_s", {2, 4}}, {"image_pull_mb_per_s", 800}};
  doc["pools"][0]["runtime"] = {{"name", "rocm"}, {"version", 6.1}};
  auto fleet = parse_fleet(doc, "fleet.json");
  REQUIRE(fleet.ok());
  CHECK(fleet->clock_mode == "virtual");
  CHECK(fleet->clock_scale == 60);
  REQUIRE(fleet->find_image("rocm/pytorch:latest"));
  CHECK(fleet->find_image("rocm/pytorch:latest")->size_mb == 1200);
  CHECK(fleet->find_image("rocm/pytorch:latest")->sim["duration_s"] == 3);
  CHECK(fleet->nodes[0].startup.provision_min_s == 2);
  CHECK(fleet->nodes[0].startup.provision_max_s == 4);
  CHECK(fleet->nodes[0].startup.image_pull_mb_per_s == 800);
  CHECK(fleet->nodes[0].runtime_version == "6.1");
}

TEST_CASE("fleet::parse_fleet names the file, the path and what was expected", "[exec][fleet]") {
  Json doc = fleet_doc();
  SECTION("wrong type") {
    doc["pools"][1]["gpu"]["count"] = "eight";
    CHECK(error_of(doc) == "fleet.json: pools[1].gpu.count: expected an integer >= 1, got \"eight\"");
  }
  SECTION("zero GPUs") {
    doc["pools"][1]["gpu"]["count"] = 0;
    CHECK(error_of(doc) == "fleet.json: pools[1].gpu.count: expected an integer >= 1, got 0");
  }
  SECTION("negative count") {
    doc["pools"][0]["count"] = -2;
    CHECK(error_of(doc) == "fleet.json: pools[0].count: expected an integer >= 0 and <= 100000, got -2");
  }
  SECTION("unknown vendor") {
    doc["pools"][1]["gpu"]["vendor"] = "intel";
    CHECK(error_of(doc) == "fleet.json: pools[1].gpu.vendor: expected amd or nvidia, got \"intel\"");
  }
  SECTION("duplicate pool name") {
    doc["pools"][1]["name"] = "mi300x-east";
    CHECK(error_of(doc) ==
          "fleet.json: pools[1].name: expected a unique pool name (pools[0] has it already), got \"mi300x-east\"");
  }
  SECTION("missing field") {
    doc["pools"][0]["gpu"].erase("vram_gb");
    CHECK(error_of(doc) == "fleet.json: pools[0].gpu.vram_gb: expected a number > 0 (required)");
  }
  SECTION("runtime of the other vendor") {
    doc["pools"][1]["runtime"] = {{"name", "rocm"}};
    CHECK(error_of(doc) == "fleet.json: pools[1].runtime.name: expected cuda for a nvidia pool, got \"rocm\"");
  }
  SECTION("provisioning range backwards") {
    doc["pools"][0]["startup"] = {{"provision_s", {5, 1}}};
    CHECK(error_of(doc) ==
          "fleet.json: pools[0].startup.provision_s: expected [min, max] seconds with 0 <= min <= max, got an array");
  }
  SECTION("bad image sim") {
    doc["images"] = Json::array({{{"ref", "a:1"}, {"sim", {{"exit_code", 300}}}}});
    CHECK(error_of(doc) == "fleet.json: images[0].sim.exit_code: expected an integer >= 0 and <= 255, got 300");
  }
  SECTION("duplicate image") {
    doc["images"] = Json::array({{{"ref", "a:1"}}, {{"ref", "a:1"}}});
    CHECK_THAT(error_of(doc), Catch::StartsWith("fleet.json: images[1].ref: expected a unique image reference"));
  }
  SECTION("bad digest") {
    doc["images"] = Json::array({{{"ref", "a:1"}, {"digest", "sha256:xyz"}}});
    CHECK_THAT(error_of(doc), Catch::StartsWith("fleet.json: images[0].digest: expected sha256:"));
  }
  SECTION("pools missing") {
    doc.erase("pools");
    CHECK(error_of(doc) == "fleet.json: pools: expected an array (required)");
  }
  SECTION("not an object") {
    CHECK(error_of(Json::array()) == "fleet.json: (document): expected an object, got an array");
  }
}

TEST_CASE("fleet::parse_fleet accepts an empty pool list and a zero-node pool", "[exec][fleet]") {
  CHECK(parse_fleet(Json{{"pools", Json::array()}}, "f")->nodes.empty());
  Json doc = fleet_doc();
  doc["pools"][0]["count"] = 0;
  CHECK(parse_fleet(doc, "f")->nodes.size() == 2);
}

TEST_CASE("exec::parse_fleet reads a slurm section, without pools", "[exec][fleet][slurm]") {
  Json doc = {{"slurm",
               {{"partitions", {"gpu"}},
                {"engine", "docker"},
                {"engine_args", {"--runtime", "runc"}},
                {"gpu_optional", true},
                {"poll_seconds", 0.5},
                {"started_poll_seconds", 3},
                {"price_per_gpu_hour", 1.5},
                {"gpu_types", {{"mi355x", {{"vendor", "amd"}, {"model", "MI355X"}, {"arch", "gfx950"}}}}}}}};
  auto fleet = parse_fleet(doc, "fleet.json");
  REQUIRE(fleet.ok());
  REQUIRE(fleet->slurm);
  CHECK(fleet->nodes.empty());
  CHECK(fleet->slurm->partitions == std::vector<std::string>{"gpu"});
  CHECK(fleet->slurm->engine == "docker");
  CHECK(fleet->slurm->gpu_optional);
  CHECK(fleet->slurm->poll == std::chrono::milliseconds(500));
  CHECK(fleet->slurm->started_poll == std::chrono::milliseconds(3000));
  CHECK(fleet->slurm->node_refresh == std::chrono::milliseconds(2000));
  CHECK(parse_fleet(Json{{"slurm", Json::object()}}, "f")->slurm->started_poll == std::chrono::milliseconds(5000));
  CHECK(fleet->slurm->price_per_gpu_hour == 1.5);
  CHECK(fleet->slurm->gpu_types.at("mi355x").arch == "gfx950");
  CHECK(fleet->slurm->gpu_types.at("mi355x").gpu_class == "datacenter");
  CHECK_FALSE(parse_fleet(fleet_doc(), "fleet.json")->slurm);
}

TEST_CASE("exec::parse_fleet names the bad member of a slurm section", "[exec][fleet][slurm]") {
  CHECK(error_of({{"slurm", {{"engine", "k8s"}}}}) == "fleet.json: slurm.engine: expected podman or docker, got \"k8s\"");
  CHECK(error_of({{"slurm", {{"gpu_types", {{"x", {{"vendor", "intel"}, {"model", "X"}}}}}}}}) ==
        "fleet.json: slurm.gpu_types.x.vendor: expected amd or nvidia, got \"intel\"");
  CHECK(error_of({{"slurm", {{"poll_seconds", 0}}}}).find("slurm.poll_seconds: expected a number > 0") !=
        std::string::npos);
  CHECK(error_of({{"slurm", {{"started_poll_seconds", -1}}}}).find("slurm.started_poll_seconds: expected a number > 0") !=
        std::string::npos);
  CHECK(error_of({{"slurm", "yes"}}).find("slurm: expected an object") != std::string::npos);
  CHECK(error_of({{"seed", 1}}).find("pools") != std::string::npos);  // no pools and no slurm
}
