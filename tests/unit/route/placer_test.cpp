#include "jgrid/route/placer.hpp"

#include <map>
#include <random>
#include <set>

#include "route_fixtures.hpp"

namespace {

using jgrid::model::JobSpec;
using jgrid::model::Node;
using jgrid::route::FleetIndex;
using jgrid::route::RouteRequest;
using jgrid::route::RouteResult;
using jgrid::test::candidate;
using jgrid::test::intent_for;
using jgrid::test::make_node;
using jgrid::test::make_spec;
using jgrid::test::place_on;

// "3 nodes: a; 1 node: b" -> {a: 3, b: 1}
std::map<std::string, long> parse_counts(const std::string& text) {
  std::map<std::string, long> counts;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find("; ", at);
    std::string part = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    std::size_t colon = part.find(": ");
    counts[part.substr(colon + 2)] += std::stol(part.substr(0, part.find(' ')));
    at = end == std::string::npos ? text.size() : end + 2;
  }
  return counts;
}

std::vector<Node> mixed_fleet() { return {make_node("h100-1", "nvidia", 8), make_node("mi300x-1", "amd", 8)}; }

}  // namespace

TEST_CASE("route::place keeps AMD intent on AMD+ROCm nodes", "[route]") {
  auto result = place_on(make_spec(), "amd", mixed_fleet());
  REQUIRE(result.status == RouteResult::Status::available);
  REQUIRE(result.placement);
  CHECK(result.placement->node_id == "node_mi300x-1");
  CHECK(result.placement->runtime == "rocm");
  CHECK(result.placement->candidates == 1);
  CHECK(result.placement->gpu_indices.empty());
  CHECK(candidate(result, "node_h100-1").reasons == std::vector<std::string>{"vendor nvidia ≠ amd"});
  CHECK_FALSE(candidate(result, "node_h100-1").fits_when_empty);
  CHECK(result.filtered == "1 node: vendor nvidia ≠ amd");
}

TEST_CASE("route::place keeps NVIDIA intent on NVIDIA nodes", "[route]") {
  auto result = place_on(make_spec(), "nvidia", mixed_fleet());
  REQUIRE(result.placement);
  CHECK(result.placement->node_id == "node_h100-1");
  CHECK(candidate(result, "node_mi300x-1").reasons == std::vector<std::string>{"vendor amd ≠ nvidia"});
}

TEST_CASE("route::place without intent considers every vendor", "[route]") {
  auto result = place_on(make_spec(), "", mixed_fleet());
  REQUIRE(result.placement);
  CHECK(result.placement->candidates == 2);
  for (const auto& c : result.candidates) CHECK(c.feasible);
  CHECK(result.filtered.empty());
  CHECK(result.explanation.rfind("placed on ", 0) == 0);
}

TEST_CASE("route::place never puts a CUDA-only workload on AMD", "[route]") {
  jgrid::screen::Intent cuda_heavy = intent_for("nvidia");
  cuda_heavy.explicit_nvidia = false;
  cuda_heavy.unknown_cuda_heavy = true;
  cuda_heavy.reasons = {"image looks CUDA-only: nvcr.io"};
  JobSpec spec = make_spec();
  SECTION("placed on NVIDIA when the fleet has it") {
    auto result = jgrid::route::report(spec, cuda_heavy, mixed_fleet(), 42);
    REQUIRE(result.placement);
    CHECK(result.placement->gpu_vendor == "nvidia");
  }
  SECTION("unavailable on an AMD-only fleet, saying how to get a route") {
    auto result = jgrid::route::report(spec, cuda_heavy, {make_node("mi300x-1", "amd", 8)}, 42);
    CHECK(result.status == RouteResult::Status::unavailable);
    CHECK_FALSE(result.placement);
    CHECK(result.explanation.find("no NVIDIA/CUDA node in the fleet") == 0);
    CHECK(result.explanation.find("declare ROCm compatibility (gpu_vendor: amd + runtime: rocm with a ROCm image)") !=
          std::string::npos);
    CHECK(result.explanation.find("select an NVIDIA route") != std::string::npos);
    CHECK(result.explanation.find("nvcr.io") != std::string::npos);
  }
}

TEST_CASE("route::place is unavailable without a node of the intended stack", "[route]") {
  auto result = place_on(make_spec(), "amd", {make_node("h100-1", "nvidia", 8), make_node("h100-2", "nvidia", 8)});
  CHECK(result.status == RouteResult::Status::unavailable);
  CHECK_FALSE(result.placement);
  CHECK_FALSE(result.likely_node);
  CHECK(result.fitting_classes.empty());
  CHECK(result.explanation == "no AMD/ROCm node in the fleet: declare a different route or add capacity");
}

TEST_CASE("route::place queues a job that fits the fleet but not its free GPUs", "[route]") {
  std::vector<Node> nodes = {make_node("h100-1", "nvidia", 8), make_node("h100-2", "nvidia", 8),
                             make_node("h100-3", "nvidia", 8), make_node("mi300x-1", "amd", 8)};
  nodes[3].gpus_free = 0;
  nodes[3].running_jobs = 1;
  auto result = place_on(make_spec(), "amd", nodes);
  CHECK(result.status == RouteResult::Status::queued);
  CHECK_FALSE(result.placement);
  REQUIRE(result.likely_node);
  CHECK(result.likely_node->id == "node_mi300x-1");
  CHECK(candidate(result, "node_mi300x-1").fits_when_empty);
  CHECK(candidate(result, "node_mi300x-1").reasons == std::vector<std::string>{"0 of 8 GPUs free"});
  CHECK(result.explanation == "no node has free capacity now: 3 nodes: vendor nvidia ≠ amd; 1 node: 0 of 8 GPUs free");
}

TEST_CASE("route::place tells never-fits reasons from not-now reasons", "[route]") {
  std::vector<Node> nodes = {make_node("mi300x-1", "amd", 8)};
  SECTION("more GPUs than the node has") {
    auto result = place_on(make_spec(16), "amd", nodes);
    CHECK(result.status == RouteResult::Status::unavailable);
    CHECK(candidate(result, "node_mi300x-1").reasons == std::vector<std::string>{"needs 16 GPUs, node has 8"});
    CHECK(result.explanation == "no node in the fleet can run this job: 1 node: needs 16 GPUs, node has 8");
  }
  SECTION("model too large for the VRAM per GPU") {
    JobSpec spec = make_spec(1);
    spec.model_size_gb = 200;  // 240 GB per GPU with headroom
    auto result = place_on(spec, "amd", nodes);
    CHECK(result.status == RouteResult::Status::unavailable);
    CHECK(candidate(result, "node_mi300x-1").reasons.front() == "needs 240 GB VRAM per GPU, node has 192 GB");
    spec.gpu_count = 2;
    CHECK(place_on(spec, "amd", nodes).status == RouteResult::Status::available);
  }
  SECTION("a draining node can come back") {
    nodes[0].status = jgrid::model::NodeStatus::draining;
    auto result = place_on(make_spec(), "amd", nodes);
    CHECK(result.status == RouteResult::Status::queued);
    CHECK(candidate(result, "node_mi300x-1").reasons == std::vector<std::string>{"node is draining"});
    CHECK(result.filtered == "1 node: node is draining");
  }
}

TEST_CASE("route::place bin-packs in balanced mode, then prefers the lower price", "[route]") {
  std::vector<Node> nodes = {make_node("a", "amd", 8, 1.0), make_node("b", "amd", 8, 3.0),
                             make_node("c", "amd", 8, 2.0)};
  nodes[1].gpus_free = 2;
  nodes[2].gpus_free = 2;
  auto result = place_on(make_spec(2), "amd", nodes);
  REQUIRE(result.placement);
  CHECK(result.placement->node_id == "node_c");  // leaves 0 GPUs, cheaper than b
  CHECK(result.placement->candidates == 3);
  CHECK(candidate(result, "node_c").score > candidate(result, "node_b").score);
  CHECK(candidate(result, "node_b").score > candidate(result, "node_a").score);
}

TEST_CASE("route::place with optimize_for cost takes the cheapest compatible node", "[route]") {
  std::vector<Node> nodes = {make_node("a", "amd", 8, 3.0), make_node("b", "amd", 8, 1.0),
                             make_node("h", "nvidia", 8, 0.5)};
  nodes[0].gpus_free = 1;
  JobSpec spec = make_spec();
  spec.optimize_for = "cost";
  CHECK(place_on(spec, "amd", nodes).placement->node_id == "node_b");
  CHECK(place_on(spec, "", nodes).placement->node_id == "node_h");
}

TEST_CASE("route::place with optimize_for speed takes the fastest class, then the idlest node", "[route]") {
  std::vector<Node> nodes = {make_node("w", "amd", 2, 1.0), make_node("busy", "amd", 8), make_node("idle", "amd", 8)};
  nodes[0].gpu_class = "workstation";
  nodes[0].speed = 1.5;
  nodes[1].gpus_free = 5;
  nodes[1].running_jobs = 3;
  JobSpec spec = make_spec();
  spec.optimize_for = "speed";
  CHECK(place_on(spec, "amd", nodes).placement->node_id == "node_idle");
  nodes[1].speed = 2.0;  // a faster datacenter node beats a quieter one
  CHECK(place_on(spec, "amd", nodes).placement->node_id == "node_busy");
}

TEST_CASE("route::place breaks ties by seed, the same way every time", "[route]") {
  std::vector<Node> nodes;
  for (int i = 0; i < 16; ++i) nodes.push_back(make_node("n" + std::to_string(i), "amd", 8));
  auto first = place_on(make_spec(), "amd", nodes, 7).placement->node_id;
  CHECK(place_on(make_spec(), "amd", nodes, 7).placement->node_id == first);
  std::reverse(nodes.begin(), nodes.end());
  CHECK(place_on(make_spec(), "amd", nodes, 7).placement->node_id == first);  // not the node order
  std::set<std::string> chosen;
  for (std::uint64_t seed = 0; seed < 16; ++seed)
    chosen.insert(place_on(make_spec(), "amd", nodes, seed).placement->node_id);
  CHECK(chosen.size() > 1);
}

TEST_CASE("route::place skips classes held for an earlier job", "[route]") {
  std::vector<Node> nodes = {make_node("a", "amd", 8), make_node("b", "amd", 4)};
  FleetIndex fleet(nodes, 42);
  auto intent = intent_for("amd");
  JobSpec spec = make_spec();
  std::set<std::uint32_t> held = {fleet.class_of(1)};
  auto result = jgrid::route::report(RouteRequest{spec, intent, &held}, fleet);
  REQUIRE(result.placement);
  CHECK(result.placement->node_id == "node_a");
  CHECK(candidate(result, "node_b").reasons == std::vector<std::string>{"held for an earlier waiting job"});
  CHECK(candidate(result, "node_b").fits_when_empty);
  held.insert(fleet.class_of(0));
  auto waiting = jgrid::route::place(RouteRequest{spec, intent, &held}, fleet);
  CHECK(waiting.status == RouteResult::Status::queued);
  CHECK(waiting.explanation == "no node has free capacity now: 2 nodes: held for an earlier waiting job");
  CHECK(waiting.fitting_classes == std::vector<std::uint32_t>{0, 1});
}

TEST_CASE("route::place looks at each node's labels for a job that asks for them", "[route]") {
  std::vector<Node> nodes;
  for (int i = 0; i < 6; ++i) {
    nodes.push_back(make_node("m" + std::to_string(i), "amd", 8));
    nodes.back().labels = {{"host", "m" + std::to_string(i)}, {"rack", i < 2 ? "r1" : "r2"}};
  }
  nodes[0].gpus_free = 0;
  nodes[0].running_jobs = 1;
  JobSpec spec = make_spec();
  spec.constraints = {{"node_labels", {{"rack", "r1"}}}};
  auto result = place_on(spec, "amd", nodes);
  REQUIRE(result.placement);
  CHECK(result.placement->node_id == "node_m1");
  CHECK(result.placement->candidates == 1);
  CHECK(candidate(result, "node_m3").reasons == std::vector<std::string>{"node label rack=r1 missing"});
  CHECK(result.filtered == "4 nodes: node label rack=r1 missing; 1 node: 0 of 8 GPUs free");
  spec.constraints = {{"node_labels", {{"rack", "r9"}}}};
  auto nowhere = place_on(spec, "amd", nodes);
  CHECK(nowhere.status == RouteResult::Status::unavailable);
  CHECK(nowhere.fitting_classes.empty());
  CHECK(nowhere.explanation == "no node in the fleet can run this job: 6 nodes: node label rack=r9 missing");
}

TEST_CASE("route::place agrees with a scan of every node on random fleets, prices and limits", "[route]") {
  std::mt19937 random(1234);
  const std::vector<std::string> modes = {"balanced", "cost", "speed"};
  for (int round = 0; round < 200; ++round) {
    std::vector<Node> nodes;
    for (int i = 0; i < 40; ++i) {
      Node node = make_node("n" + std::to_string(i), random() % 3 ? "amd" : "nvidia", random() % 2 ? 8 : 4,
                            1.0 + static_cast<double>(random() % 3) + 0.25 * static_cast<double>(random() % 4));
      node.gpus_free = static_cast<int>(random() % static_cast<unsigned>(node.gpu_count + 1));
      node.running_jobs = node.gpu_count == node.gpus_free ? 0 : 1 + static_cast<int>(random() % 2);
      node.region = random() % 2 ? "us-east" : "us-west";
      node.labels = {{"zone", random() % 2 ? "a" : "b"}};
      if (random() % 10 == 0) node.status = jgrid::model::NodeStatus::draining;
      nodes.push_back(node);
    }
    JobSpec spec = make_spec(1 + static_cast<int>(random() % 4));
    spec.optimize_for = modes[random() % modes.size()];
    spec.constraints = {{"region_preference", "us-west"}};
    if (round % 4 == 0) spec.constraints["node_labels"] = {{"zone", "a"}};
    // Prices vary inside a node class: a limit that cuts through classes.
    if (round % 3 == 0) spec.constraints["max_price_per_hour"] = 2.5 * spec.gpu_count;
    auto result = place_on(spec, random() % 2 ? "amd" : "", nodes, static_cast<std::uint64_t>(round));
    std::map<std::string, long> first_reasons;
    for (const auto& c : result.candidates)
      if (!c.reasons.empty()) ++first_reasons[c.reasons.front()];
    CHECK(parse_counts(result.filtered) == first_reasons);
    const jgrid::route::Candidate* best = nullptr;
    FleetIndex fleet(nodes, static_cast<std::uint64_t>(round));
    for (std::size_t i = 0; i < result.candidates.size(); ++i) {
      const auto& c = result.candidates[i];
      if (!c.feasible) continue;
      if (!best || c.score > best->score ||
          (c.score == best->score && fleet.tie_hash(i) < fleet.tie_hash(*fleet.slot_of(best->node_id))))
        best = &c;
    }
    REQUIRE(bool(best) == bool(result.placement));
    if (!best) continue;
    CHECK(result.placement->node_id == best->node_id);
    CHECK(result.placement->candidates ==
          std::count_if(result.candidates.begin(), result.candidates.end(), [](const auto& c) { return c.feasible; }));
  }
}

TEST_CASE("route::route_key is equal for jobs the router cannot tell apart", "[route]") {
  JobSpec a = make_spec(2);
  JobSpec b = make_spec(2);
  b.name = "another name";
  b.image = "ghcr.io/acme/other:1";
  CHECK(jgrid::route::route_key(a, intent_for("amd")) == jgrid::route::route_key(b, intent_for("amd")));
  CHECK(jgrid::route::route_key(a, intent_for("amd")) != jgrid::route::route_key(a, intent_for("nvidia")));
  b.constraints = {{"region_preference", "us-west"}};
  CHECK(jgrid::route::route_key(a, intent_for("amd")) != jgrid::route::route_key(b, intent_for("amd")));
  CHECK(jgrid::route::to_string(RouteResult::Status::queued) == "queued");
}
