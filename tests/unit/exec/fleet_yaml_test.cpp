#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "jgrid/exec/fleet.hpp"
#include "recording_sink.hpp"

using namespace jgrid;
using namespace jgrid::exec;

namespace {

const char* k_pool = R"(pools:
  - name: p
    count: 2
    region: us-east
    gpu: { vendor: amd, model: MI300X, count: 8, vram_gb: 192, arch: gfx942 }
    runtime: { name: rocm, version: "6.2" }
    price_per_gpu_hour: 2.10
    labels: { amd.com/gpu.family: AI }
    startup: { provision_s: [5, 20], image_pull_mb_per_s: 400 }
    faults: { node_lost_per_hour: 0.5, start_error_rate: 0.1 }
)";

std::string examples() { return std::string(JGRID_SOURCE_DIR) + "/examples/fleets"; }

}  // namespace

TEST_CASE("fleet::load_fleet_file reads YAML with typed scalars, faults and quoted versions", "[exec][fleet]") {
  exec::testing::TempWorkspace dir;
  auto fleet = load_fleet_file(dir.write("fleet.yaml", std::string("seed: 9\nclock: { mode: virtual }\n") + k_pool));
  REQUIRE(fleet.ok());
  CHECK(fleet->seed == 9);
  CHECK(fleet->clock_mode == "virtual");
  REQUIRE(fleet->nodes.size() == 2);
  CHECK(fleet->nodes[1].name == "p-2");
  CHECK(fleet->nodes[0].runtime_version == "6.2");
  CHECK(fleet->nodes[0].price_per_gpu_hour == Approx(2.10));
  CHECK(fleet->nodes[0].labels.at("amd.com/gpu.family") == "AI");
  CHECK(fleet->nodes[0].startup.provision_max_s == 20);
  REQUIRE(fleet->faults.count("p"));
  CHECK(fleet->faults.at("p").node_lost_per_hour == 0.5);
  CHECK(fleet->faults.at("p").start_error_rate == Approx(0.1));
}

TEST_CASE("fleet::load_fleet_file names file, path and expectation for bad YAML fleets", "[exec][fleet]") {
  exec::testing::TempWorkspace dir;
  auto message = [&](const std::string& name, const std::string& text) {
    auto loaded = load_fleet_file(dir.write(name, text));
    REQUIRE_FALSE(loaded.ok());
    CHECK(loaded.error().code == "INVALID_FLEET");
    return loaded.error().message;
  };
  std::string base = (dir.path() / "").string();
  CHECK(message("type.yaml", "pools:\n  - name: p\n    gpu: { vendor: amd, model: X, count: many, vram_gb: 1 }\n") ==
        base + "type.yaml: pools[0].gpu.count: expected an integer >= 1, got \"many\"");
  CHECK(message("count.yaml", "pools:\n  - name: p\n    count: -3\n    gpu: { vendor: amd, model: X, count: 1, vram_gb: 1 }\n") ==
        base + "count.yaml: pools[0].count: expected an integer >= 0 and <= 100000, got -3");
  CHECK(message("vendor.yaml", "pools:\n  - name: p\n    gpu: { vendor: intel, model: X, count: 1, vram_gb: 1 }\n") ==
        base + "vendor.yaml: pools[0].gpu.vendor: expected amd or nvidia, got \"intel\"");
  CHECK_THAT(message("dup.yaml", std::string(k_pool) + "  - name: p\n    gpu: { vendor: amd, model: X, count: 1, vram_gb: 1 }\n"),
             Catch::StartsWith(base + "dup.yaml: pools[1].name: expected a unique pool name"));
  CHECK_THAT(message("rate.yaml", "pools:\n  - name: p\n    gpu: { vendor: amd, model: X, count: 1, vram_gb: 1 }\n"
                                  "    faults: { oom_rate: 2 }\n"),
             Catch::StartsWith(base + "rate.yaml: pools[0].faults.oom_rate: expected a probability between 0 and 1"));
  CHECK_THAT(message("syntax.yaml", "pools: [\n"), Catch::StartsWith(base + "syntax.yaml: not valid YAML: line "));
}

TEST_CASE("fleet::load_fleet_files merges files and refuses a pool given twice", "[exec][fleet]") {
  exec::testing::TempWorkspace dir;
  auto a = dir.write("a.yaml", std::string("seed: 5\n") + k_pool);
  auto b = dir.write("b.json", R"({"seed": 6, "pools": [{"name": "q", "gpu": {"vendor": "nvidia", "model": "H100", "count": 8, "vram_gb": 80}}]})");
  auto merged = load_fleet_files({a, b});
  REQUIRE(merged.ok());
  CHECK(merged->seed == 5);
  CHECK(merged->nodes.size() == 3);
  auto twice = load_fleet_files({a, b, a});
  REQUIRE_FALSE(twice.ok());
  CHECK(twice.error().message == a + ": pool p: expected a unique pool name (" + a + " has it already)");
}

TEST_CASE("fleet::a file of images only extends the built-in fleet", "[exec][fleet]") {
  exec::testing::TempWorkspace dir;
  Fleet builtin = default_fleet();
  REQUIRE_FALSE(builtin.images.empty());
  const std::string replaced = builtin.images[0].ref;
  auto file = dir.write("images.yaml", "images:\n  - ref: example.com/mine:1\n    sim: { duration_s: 3 }\n"
                                       "  - ref: " + replaced + "\n    size_mb: 1\n");
  auto fleet = load_fleet_files({file});
  REQUIRE(fleet.ok());
  CHECK(fleet->nodes.size() == builtin.nodes.size());
  CHECK(fleet->images.size() == builtin.images.size() + 1);
  REQUIRE(fleet->find_image("example.com/mine:1"));
  CHECK(fleet->find_image("example.com/mine:1")->sim["duration_s"] == 3);
  CHECK(fleet->find_image(replaced)->size_mb == 1);  // the file's entry replaces the built-in one
  auto examples_file = load_fleet_files({examples() + "/images-only.yaml"});
  REQUIRE(examples_file.ok());
  CHECK(examples_file->nodes.size() == builtin.nodes.size());
  // With a file that has pools, an images-only file adds to those pools instead.
  auto pools = dir.write("pools.yaml", k_pool);
  auto both = load_fleet_files({pools, file});
  REQUIRE(both.ok());
  CHECK(both->nodes.size() == 2);
  // A file with nothing in it is still refused.
  auto empty = load_fleet_files({dir.write("empty.yaml", "seed: 3\n")});
  REQUIRE_FALSE(empty.ok());
  CHECK_THAT(empty.error().message, Catch::Contains("pools"));
}

TEST_CASE("fleet::examples/fleets all load, with the node counts they promise", "[exec][fleet]") {
  std::map<std::string, std::size_t> expected = {
      {"laptop.yaml", 1}, {"mixed-cloud.yaml", 19}, {"amd-only.yaml", 24}, {"large.yaml", 10000},
      {"images-only.yaml", 0}};  // its nodes come from the built-in fleet (load_fleet_files)
  std::size_t seen = 0;
  for (const auto& entry : std::filesystem::directory_iterator(examples())) {
    auto fleet = load_fleet_file(entry.path().string());
    INFO(entry.path());
    REQUIRE(fleet.ok());
    auto name = entry.path().filename().string();
    if (expected.count(name)) {
      CHECK(fleet->nodes.size() == expected.at(name));
      ++seen;
    }
  }
  CHECK(seen == expected.size());
  auto laptop = load_fleet_file(examples() + "/laptop.yaml");
  CHECK(laptop->nodes[0].gpu_family == "radeon");
  auto mixed = load_fleet_file(examples() + "/mixed-cloud.yaml");
  std::set<std::string> regions, vendors;
  for (const auto& node : mixed->nodes) regions.insert(node.region), vendors.insert(node.gpu_vendor);
  CHECK(regions.size() == 3);
  CHECK(vendors.size() == 2);
  // Bound to a name: a range-for over a member of the temporary would read freed memory.
  auto amd_only = load_fleet_file(examples() + "/amd-only.yaml");
  REQUIRE(amd_only.ok());
  for (const auto& node : amd_only->nodes) CHECK(node.gpu_vendor == "amd");
}

TEST_CASE("fleet::load_fleet_file refuses YAML that is not UTF-8, naming line and column", "[exec][fleet]") {
  exec::testing::TempWorkspace dir;
  // A stray byte inside a quoted digest (found by the fleet fuzzer): once an
  // uncaught exception while the error message was written.
  auto loaded = load_fleet_file(dir.write("bytes.yaml", "seed: 7\nimages:\n  - ref: \"x\"\n    digest: \"sha256:ab\xbf\"\n"));
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.error().code == "INVALID_FLEET");
  CHECK(loaded.error().message == (dir.path() / "bytes.yaml").string() + ": not valid YAML: line 4, column 23: invalid UTF-8");
  // Valid multi-byte text still loads.
  CHECK(load_fleet_file(dir.write("utf8.yaml", std::string("seed: 7\n# caf\xc3\xa9 \xe2\x9c\x93\n") + k_pool)).ok());
}
