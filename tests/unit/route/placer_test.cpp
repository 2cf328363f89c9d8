#include "jgrid/route/placer.hpp"

#include <catch2/catch.hpp>
#include <set>

namespace {

using jgrid::model::JobSpec;
using jgrid::model::Node;
using jgrid::route::place;
using jgrid::route::RouteResult;

Node make_node(const std::string& name, const std::string& vendor, int gpus, double price = 2.0) {
  Node node;
  node.id = "node_" + name;
  node.name = name;
  node.gpu_vendor = vendor;
  node.runtime = vendor == "amd" ? "rocm" : "cuda";
  node.runtime_version = vendor == "amd" ? "6.2" : "12.4";
  node.gpu_model = vendor == "amd" ? "MI300X" : "H100";
  node.gpu_family = vendor == "amd" ? "instinct" : "hopper";
  node.gpu_class = "datacenter";
  node.gpu_count = gpus;
  node.gpus_free = gpus;
  node.vram_gb = vendor == "amd" ? 192 : 80;
  node.price_per_gpu_hour = price;
  return node;
}

JobSpec make_spec(const std::string& vendor, int gpus = 1) {
  JobSpec spec;
  spec.image = "ghcr.io/acme/app:latest";
  spec.gpu_vendor = vendor;
  spec.gpu_count = gpus;
  return spec;
}

const jgrid::route::Candidate& candidate(const RouteResult& result, const std::string& node_id) {
  for (const auto& c : result.candidates)
    if (c.node_id == node_id) return c;
  FAIL("no candidate " << node_id);
  throw;
}

}  // namespace

TEST_CASE("route::place keeps AMD intent on AMD+ROCm nodes", "[route]") {
  std::vector<Node> nodes = {make_node("h100-1", "nvidia", 8), make_node("mi300x-1", "amd", 8)};
  auto result = place(make_spec("amd"), nodes, 42);
  REQUIRE(result.status == RouteResult::Status::available);
  REQUIRE(result.placement);
  CHECK(result.placement->node_id == "node_mi300x-1");
  CHECK(result.placement->runtime == "rocm");
  CHECK(result.placement->candidates == 1);
  CHECK(result.placement->gpu_indices.empty());
  CHECK(candidate(result, "node_h100-1").reasons == std::vector<std::string>{"vendor nvidia ≠ amd"});
  CHECK_FALSE(candidate(result, "node_h100-1").fits_when_empty);
}

TEST_CASE("route::place reads intent from runtime when no vendor is stated", "[route]") {
  std::vector<Node> nodes = {make_node("h100-1", "nvidia", 8), make_node("mi300x-1", "amd", 8)};
  JobSpec cuda = make_spec("");
  cuda.runtime = "cuda";
  CHECK(place(cuda, nodes, 1).placement->node_id == "node_h100-1");
  JobSpec rocm = make_spec("");
  rocm.runtime = "rocm";
  CHECK(place(rocm, nodes, 1).placement->node_id == "node_mi300x-1");
  CHECK(jgrid::route::intent_vendor(cuda) == "nvidia");
  CHECK(jgrid::route::intent_vendor(make_spec("")) == "any");
}

TEST_CASE("route::place is unavailable without a node of the intended stack", "[route]") {
  std::vector<Node> nodes = {make_node("h100-1", "nvidia", 8), make_node("h100-2", "nvidia", 8)};
  auto result = place(make_spec("amd"), nodes, 42);
  CHECK(result.status == RouteResult::Status::unavailable);
  CHECK_FALSE(result.placement);
  CHECK(result.explanation == "no AMD/ROCm node in the fleet: declare a different route or add capacity");
}

TEST_CASE("route::place queues a job that fits the fleet but not its free GPUs", "[route]") {
  std::vector<Node> nodes = {make_node("h100-1", "nvidia", 8), make_node("h100-2", "nvidia", 8),
                             make_node("h100-3", "nvidia", 8), make_node("mi300x-1", "amd", 8)};
  nodes[3].gpus_free = 0;
  auto result = place(make_spec("amd"), nodes, 42);
  CHECK(result.status == RouteResult::Status::queued);
  CHECK_FALSE(result.placement);
  CHECK(candidate(result, "node_mi300x-1").fits_when_empty);
  CHECK(candidate(result, "node_mi300x-1").reasons == std::vector<std::string>{"0 of 8 GPUs free"});
  CHECK(result.explanation ==
        "no node has free capacity now: 3 nodes: vendor nvidia ≠ amd; 1 node: 0 of 8 GPUs free");
}

TEST_CASE("route::place tells never-fits reasons from not-now reasons", "[route]") {
  std::vector<Node> nodes = {make_node("mi300x-1", "amd", 8)};
  SECTION("more GPUs than the node has") {
    auto result = place(make_spec("amd", 16), nodes, 42);
    CHECK(result.status == RouteResult::Status::unavailable);
    CHECK(candidate(result, "node_mi300x-1").reasons == std::vector<std::string>{"needs 16 GPUs, node has 8"});
    CHECK(result.explanation == "no node in the fleet can run this job: 1 node: needs 16 GPUs, node has 8");
  }
  SECTION("model too large for the VRAM per GPU") {
    JobSpec spec = make_spec("amd", 1);
    spec.model_size_gb = 200;  // 240 GB per GPU with headroom
    auto result = place(spec, nodes, 42);
    CHECK(result.status == RouteResult::Status::unavailable);
    CHECK(candidate(result, "node_mi300x-1").reasons.front() == "needs 240 GB VRAM per GPU, node has 192 GB");
    spec.gpu_count = 2;
    CHECK(place(spec, nodes, 42).status == RouteResult::Status::available);
  }
  SECTION("gpu_type compares case-insensitively") {
    JobSpec spec = make_spec("any");
    spec.gpu_type = "mi300x";
    CHECK(place(spec, nodes, 42).status == RouteResult::Status::available);
    spec.gpu_type = "H100";
    CHECK(place(spec, nodes, 42).status == RouteResult::Status::unavailable);
  }
  SECTION("a draining node can come back") {
    nodes[0].status = jgrid::model::NodeStatus::draining;
    auto result = place(make_spec("amd"), nodes, 42);
    CHECK(result.status == RouteResult::Status::queued);
    CHECK(candidate(result, "node_mi300x-1").reasons == std::vector<std::string>{"node is draining"});
  }
}

TEST_CASE("route::place bin-packs in balanced mode, then prefers the lower price", "[route]") {
  std::vector<Node> nodes = {make_node("a", "amd", 8, 1.0), make_node("b", "amd", 8, 3.0),
                             make_node("c", "amd", 8, 2.0)};
  nodes[0].gpus_free = 8;
  nodes[1].gpus_free = 2;
  nodes[2].gpus_free = 2;
  auto result = place(make_spec("amd", 2), nodes, 42);
  REQUIRE(result.placement);
  CHECK(result.placement->node_id == "node_c");  // leaves 0 GPUs, cheaper than b
  CHECK(result.placement->candidates == 3);
  CHECK(candidate(result, "node_c").score > candidate(result, "node_b").score);
  CHECK(candidate(result, "node_b").score > candidate(result, "node_a").score);
}

TEST_CASE("route::place in cost mode takes the cheapest node", "[route]") {
  std::vector<Node> nodes = {make_node("a", "amd", 8, 3.0), make_node("b", "amd", 8, 1.0)};
  nodes[1].gpus_free = 8;
  nodes[0].gpus_free = 1;
  JobSpec spec = make_spec("amd");
  spec.optimize_for = "cost";
  CHECK(place(spec, nodes, 42).placement->node_id == "node_b");
}

TEST_CASE("route::place in speed mode prefers datacenter GPUs and idle nodes", "[route]") {
  std::vector<Node> nodes = {make_node("w", "amd", 2, 1.0), make_node("busy", "amd", 8), make_node("idle", "amd", 8)};
  nodes[0].gpu_class = "workstation";
  nodes[1].running_jobs = 3;
  JobSpec spec = make_spec("amd");
  spec.optimize_for = "speed";
  CHECK(place(spec, nodes, 42).placement->node_id == "node_idle");
}

TEST_CASE("route::place breaks ties by seed, the same way every time", "[route]") {
  std::vector<Node> nodes;
  for (int i = 0; i < 16; ++i) nodes.push_back(make_node("n" + std::to_string(i), "amd", 8));
  JobSpec spec = make_spec("amd");
  auto first = place(spec, nodes, 7).placement->node_id;
  CHECK(place(spec, nodes, 7).placement->node_id == first);
  std::set<std::string> chosen;
  for (std::uint64_t seed = 0; seed < 16; ++seed) chosen.insert(place(spec, nodes, seed).placement->node_id);
  CHECK(chosen.size() > 1);  // the seed, not the node order, decides ties
}

TEST_CASE("route::place lists one candidate per node with its reasons", "[route]") {
  std::vector<Node> nodes = {make_node("h", "nvidia", 8), make_node("m", "amd", 8)};
  auto result = place(make_spec("any"), nodes, 42);
  REQUIRE(result.candidates.size() == 2);
  for (const auto& c : result.candidates) {
    CHECK(c.feasible);
    CHECK(c.reasons.empty());
  }
  CHECK(result.explanation.rfind("placed on ", 0) == 0);
  CHECK(jgrid::route::to_string(result.status) == "available");
}
