#include "jgrid/exec/slurm_nodes.hpp"

#include <catch2/catch.hpp>
#include <filesystem>

#include "recording_sink.hpp"

using namespace jgrid;
using namespace jgrid::exec;

namespace {

// `sinfo --json` of the two-node test cluster (tests/support/slurm-cluster.sh),
// recorded from the real daemons in three states.
std::string slurm_fixture(const std::string& name) {
  return testing::read_text(std::filesystem::path(JGRID_SOURCE_DIR) / "tests/fixtures/slurm" / name);
}

const SlurmNode& find_slurm_node(const std::vector<SlurmNode>& nodes, const std::string& name) {
  auto it = std::find_if(nodes.begin(), nodes.end(), [&](const SlurmNode& n) { return n.node.name == name; });
  REQUIRE(it != nodes.end());
  return *it;
}

}  // namespace

TEST_CASE("exec::parse_sinfo_nodes maps GRES and features of idle nodes", "[exec][slurm]") {
  auto nodes = parse_sinfo_nodes(slurm_fixture("sinfo-idle.json"));
  REQUIRE(nodes);
  REQUIRE(nodes->size() == 2);
  const auto& n1 = find_slurm_node(*nodes, "n1");
  CHECK(n1.unusable.empty());
  CHECK(n1.node.id == "node_slurm-n1");
  CHECK(n1.node.source == "slurm");
  CHECK(n1.node.pool == "gpu");
  CHECK(n1.node.gpu_vendor == "amd");
  CHECK(n1.node.gpu_model == "MI300X");
  CHECK(n1.node.gpu_family == "instinct");
  CHECK(n1.node.gpu_arch == "gfx942");
  CHECK(n1.node.runtime == "rocm");
  CHECK(n1.node.runtime_version == "6.2");
  CHECK(n1.node.gpu_count == 2);
  CHECK(n1.node.gpus_free == 2);
  CHECK(n1.node.status == model::NodeStatus::online);
  const auto& n2 = find_slurm_node(*nodes, "n2");
  CHECK(n2.node.gpu_model == "Radeon PRO W7900");
  CHECK(n2.node.gpu_arch == "gfx1100");
  CHECK(n2.node.gpu_count == 1);
}

TEST_CASE("exec::parse_sinfo_nodes follows allocated GPUs and drained and down nodes", "[exec][slurm]") {
  auto busy = parse_sinfo_nodes(slurm_fixture("sinfo-mixed-drained.json"));
  REQUIRE(busy);
  const auto& n1 = find_slurm_node(*busy, "n1");
  CHECK(n1.slurm_state == "mixed");
  CHECK(n1.node.gpus_free == 1);
  CHECK(n1.node.status == model::NodeStatus::online);
  const auto& n2 = find_slurm_node(*busy, "n2");
  CHECK(n2.slurm_state == "idle+DRAIN");
  CHECK(n2.node.status == model::NodeStatus::draining);
  auto down = parse_sinfo_nodes(slurm_fixture("sinfo-down.json"));
  REQUIRE(down);
  CHECK(find_slurm_node(*down, "n2").node.status == model::NodeStatus::offline);
}

TEST_CASE("exec::slurm_node_status maps states and flags", "[exec][slurm]") {
  CHECK(slurm_node_status("idle", {}, 2) == model::NodeStatus::online);
  CHECK(slurm_node_status("mixed", {}, 1) == model::NodeStatus::online);
  CHECK(slurm_node_status("mixed", {}, 0) == model::NodeStatus::busy);
  CHECK(slurm_node_status("allocated", {}, 0) == model::NodeStatus::busy);
  CHECK(slurm_node_status("mixed", {"DRAIN"}, 1) == model::NodeStatus::draining);
  CHECK(slurm_node_status("idle", {"NOT_RESPONDING"}, 2) == model::NodeStatus::offline);
  CHECK(slurm_node_status("down", {}, 2) == model::NodeStatus::offline);
}

TEST_CASE("exec::parse_sinfo_nodes reports nodes it cannot map and refuses other text", "[exec][slurm]") {
  std::string doc = R"({"nodes": [
    {"name": "cpu1", "state": "idle", "state_flags": [], "gres": "", "gres_used": "", "active_features": "", "partitions": ["cpu"]},
    {"name": "odd1", "state": "idle", "state_flags": [], "gres": "gpu:x9000:4", "gres_used": "gpu:x9000:0", "active_features": "amd", "partitions": ["gpu"]},
    {"name": "mix1", "state": "idle", "state_flags": [], "gres": "gpu:h100:2", "gres_used": "", "active_features": "amd", "partitions": ["gpu"]}]})";
  auto nodes = parse_sinfo_nodes(doc);
  REQUIRE(nodes);
  CHECK(find_slurm_node(*nodes, "cpu1").unusable.find("no GPU GRES") != std::string::npos);
  CHECK(find_slurm_node(*nodes, "odd1").unusable.find("slurm.gpu_types") != std::string::npos);
  CHECK(find_slurm_node(*nodes, "odd1").node.status == model::NodeStatus::offline);
  CHECK(find_slurm_node(*nodes, "mix1").unusable.find("is nvidia") != std::string::npos);
  auto mapped = parse_sinfo_nodes(doc, {{"x9000", {"amd", "X9000", "instinct", "datacenter", "gfx999", 96}}});
  REQUIRE(mapped);
  CHECK(find_slurm_node(*mapped, "odd1").unusable.empty());
  CHECK(find_slurm_node(*mapped, "odd1").node.gpus_free == 4);
  CHECK_FALSE(parse_sinfo_nodes("not json"));
  CHECK(parse_sinfo_nodes("{}").error().code == "INVALID_SLURM_OUTPUT");
  CHECK_FALSE(parse_sinfo_nodes(R"({"nodes": [{"state": "idle"}]})"));
}
