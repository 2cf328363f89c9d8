#include "jgrid/exec/fleet.hpp"

#include <catch2/catch.hpp>
#include <fstream>

#include "recording_sink.hpp"

using namespace jgrid;
using namespace jgrid::exec;
using Json = nlohmann::json;

namespace {

}  // namespace

TEST_CASE("fleet::find_image matches the exact reference", "[exec][fleet]") {
  Fleet fleet;
  fleet.images.push_back(ImageInfo{"rocm/vllm:latest"});
  CHECK(fleet.find_image("rocm/vllm:latest") == &fleet.images[0]);
  CHECK(fleet.find_image("rocm/vllm") == nullptr);
}

TEST_CASE("fleet::load_fleet_file reads JSON and reports what is wrong with a file", "[exec][fleet]") {
  exec::testing::TempWorkspace dir;
  Json doc{{"pools", {{{"name", "p"}, {"gpu", {{"vendor", "amd"}, {"model", "MI250"}, {"count", 4}, {"vram_gb", 64}}}}}}};
  auto good = load_fleet_file(dir.write("fleet.json", doc.dump()));
  REQUIRE(good.ok());
  CHECK(good->nodes.size() == 1);

  auto broken_path = dir.write("broken.json", "{\"pools\": [");
  auto broken = load_fleet_file(broken_path);
  REQUIRE_FALSE(broken.ok());
  CHECK(broken.error().code == "INVALID_FLEET");
  CHECK_THAT(broken.error().message, Catch::StartsWith(broken_path + ": not valid JSON: "));

  auto huge_path = dir.write("huge.json", "{\"seed\": 1.0e4867, \"pools\": []}");  // beyond a double: no throw
  auto huge = load_fleet_file(huge_path);
  REQUIRE_FALSE(huge.ok());
  CHECK(huge.error().code == "INVALID_FLEET");
  CHECK_THAT(huge.error().message, Catch::Contains("not valid JSON: number overflow parsing '1.0e4867'"));

  doc["pools"][0]["gpu"]["count"] = -1;
  auto invalid_path = dir.write("invalid.json", doc.dump());
  CHECK(load_fleet_file(invalid_path).error().message ==
        invalid_path + ": pools[0].gpu.count: expected an integer >= 1, got -1");

  auto missing = load_fleet_file((dir.path() / "none.json").string());
  CHECK(missing.error().code == "INVALID_FLEET");
  CHECK_THAT(missing.error().message, Catch::Contains("none.json"));

}

TEST_CASE("fleet::fleet_summary counts nodes and GPUs per vendor and model", "[exec][fleet]") {
  Fleet fleet;
  CHECK(fleet_summary(fleet) == "no nodes");
  auto node = [](std::string vendor, std::string model, int gpus) {
    model::Node n;
    n.gpu_vendor = vendor;
    n.gpu_model = model;
    n.gpu_count = gpus;
    return n;
  };
  fleet.nodes = {node("amd", "MI300X", 8), node("nvidia", "L4", 1), node("amd", "MI300X", 8)};
  CHECK(fleet_summary(fleet) == "2× AMD MI300X (16 GPUs), 1× NVIDIA L4 (1 GPU); 3 nodes, 17 GPUs");
}
