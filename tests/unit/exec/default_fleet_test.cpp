#include <algorithm>
#include <catch2/catch.hpp>
#include <set>

#include "jgrid/exec/fleet.hpp"

using namespace jgrid;
using namespace jgrid::exec;

TEST_CASE("fleet::default_fleet has AMD Instinct and Radeon, NVIDIA, two regions", "[exec][fleet]") {
  Fleet fleet = default_fleet();
  CHECK(fleet.seed == 42);
  CHECK(fleet.clock_mode == "real");
  std::set<std::string> families, vendors, regions, ids;
  std::set<double> prices;
  for (const auto& node : fleet.nodes) {
    families.insert(node.gpu_family);
    vendors.insert(node.gpu_vendor);
    regions.insert(node.region);
    prices.insert(node.price_per_gpu_hour);
    ids.insert(node.id);
  }
  CHECK(families.count("instinct"));
  CHECK(families.count("radeon"));
  CHECK(vendors == std::set<std::string>{"amd", "nvidia"});
  CHECK(regions == std::set<std::string>{"us-east", "us-west"});
  CHECK(prices.size() > 3);
  CHECK(ids.size() == fleet.nodes.size());
  CHECK(fleet.nodes.front().name == "mi300x-east-1");
  CHECK(fleet_summary(fleet) ==
        "2× AMD MI300X (16 GPUs), 1× AMD MI250 (4 GPUs), 2× AMD Radeon PRO W7900 (2 GPUs), "
        "2× NVIDIA H100 (16 GPUs), 1× NVIDIA L4 (1 GPU); 8 nodes, 39 GPUs");
}

TEST_CASE("fleet::default_fleet knows the example images and their stacks", "[exec][fleet]") {
  Fleet fleet = default_fleet();
  const ImageInfo* acme = fleet.find_image("ghcr.io/acme/pytorch-rocm:latest");
  REQUIRE(acme);
  CHECK(acme->labels.at("io.junglegrid.runtime") == "rocm");
  CHECK(acme->env.at("ROCM_VERSION") == "6.2");
  CHECK(acme->digest.starts_with("sha256:"));
  CHECK(acme->size_mb == 9100);
  const ImageInfo* cuda = fleet.find_image("nvidia/cuda:12.4.0-runtime-ubuntu22.04");
  REQUIRE(cuda);
  CHECK(cuda->env.at("CUDA_VERSION") == "12.4.0");
  CHECK(cuda->env.count("NVIDIA_REQUIRE_CUDA"));
  CHECK(fleet.find_image("rocm/pytorch:latest"));
  CHECK(fleet.find_image("rocm/vllm:latest"));
}

TEST_CASE("fleet::default_fleet starts the example job well within a minute", "[exec][fleet]") {
  Fleet fleet = default_fleet();
  const ImageInfo* acme = fleet.find_image("ghcr.io/acme/pytorch-rocm:latest");
  for (const auto& node : fleet.nodes) {
    double worst_s = node.startup.provision_max_s + acme->size_mb / node.startup.image_pull_mb_per_s +
                     acme->sim["duration_s"].get<double>() + 1.0;
    CHECK(worst_s < 30);
  }
}
