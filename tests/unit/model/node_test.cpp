#include <catch2/catch.hpp>

#include "jgrid/model/node.hpp"

using namespace jgrid::model;

namespace {

Node mi300x() {
  Node node;
  node.id = "node_mi300x-east-1";
  node.name = "mi300x-east-1";
  node.pool = "east";
  node.status = NodeStatus::busy;
  node.gpu_vendor = "amd";
  node.runtime = "rocm";
  node.runtime_version = "6.2";
  node.gpu_model = "MI300X";
  node.gpu_family = "instinct";
  node.gpu_class = "datacenter";
  node.gpu_arch = "gfx942";
  node.gpu_count = 8;
  node.gpus_free = 5;
  node.vram_gb = 192;
  node.region = "us-east";
  node.price_per_gpu_hour = 2.5;
  node.labels = {{"rack", "r1"}};
  node.running_jobs = 2;
  node.last_heartbeat_ms = 1'790'000'000'000;
  return node;
}

}  // namespace

TEST_CASE("model::vendor_display upper-cases known vendors", "[model]") {
  CHECK(vendor_display("amd") == "AMD");
  CHECK(vendor_display("AMD") == "AMD");
  CHECK(vendor_display("nvidia") == "NVIDIA");
  CHECK(vendor_display("intel") == "INTEL");
}

TEST_CASE("model::runtime_display names the runtime and its version", "[model]") {
  CHECK(runtime_display(mi300x()) == "ROCm 6.2");
  Node h100;
  h100.runtime = "cuda";
  h100.runtime_version = "12.4";
  CHECK(runtime_display(h100) == "CUDA 12.4");
  CHECK(runtime_display("rocm", "") == "ROCm");
}

TEST_CASE("model::node_to_api carries every docs/api.md node field", "[model]") {
  nlohmann::json api = node_to_api(mi300x());
  CHECK(api["node_id"] == "node_mi300x-east-1");
  CHECK(api["name"] == "mi300x-east-1");
  CHECK(api["source"] == "simulated");
  CHECK(api["status"] == "busy");
  CHECK(api["gpu_vendor"] == "amd");
  CHECK(api["runtime"] == "rocm");
  CHECK(api["runtime_version"] == "6.2");
  CHECK(api["gpu_model"] == "MI300X");
  CHECK(api["gpu_family"] == "instinct");
  CHECK(api["gpu_class"] == "datacenter");
  CHECK(api["gpu_count"] == 8);
  CHECK(api["gpus_free"] == 5);
  CHECK(api["vram_gb"] == 192.0);
  CHECK(api["region"] == "us-east");
  CHECK(api["price_per_gpu_hour"] == 2.5);
  CHECK(api["labels"] == nlohmann::json{{"rack", "r1"}});
  CHECK(api["running_jobs"] == 2);
  CHECK(api["last_heartbeat_at"] == "2026-09-21T14:13:20.000Z");
}

TEST_CASE("model::node_to_api omits unknown strings and heartbeat", "[model]") {
  Node node;
  node.id = "node_x";
  node.status = NodeStatus::offline;
  nlohmann::json api = node_to_api(node);
  CHECK(api["status"] == "offline");
  CHECK_FALSE(api.contains("last_heartbeat_at"));
  CHECK_FALSE(api.contains("region"));
  for (const auto& [key, value] : api.items()) CHECK_FALSE(value.is_null());
}

TEST_CASE("model::to_string names every node status", "[model]") {
  CHECK(to_string(NodeStatus::online) == "online");
  CHECK(to_string(NodeStatus::busy) == "busy");
  CHECK(to_string(NodeStatus::draining) == "draining");
  CHECK(to_string(NodeStatus::offline) == "offline");
}
