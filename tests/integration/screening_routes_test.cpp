// The ROCm contract over real HTTP (docs/rocm.md §1–3, docs/api.md §2.1, §2.2, §3.2):
// screening on submit, estimate and dry runs, intent-aware placement, waiting
// for capacity, optimize_for and seeded tie-breaks.
#include <set>

#include "test_server.hpp"

using jgrid::test::Json;
using jgrid::test::rocm_example;
using jgrid::test::TestServer;
using jgrid::test::TestServerOptions;

namespace {

Json patched(Json body, const Json& patch) {
  body.merge_patch(patch);
  return body;
}

jgrid::exec::Fleet fleet_of(const std::vector<Json>& pools, std::uint64_t seed = 42) {
  auto fleet = jgrid::exec::parse_fleet(Json{{"seed", seed}, {"pools", Json(pools)}}, "test fleet");
  INFO((fleet.ok() ? "" : fleet.error().message));
  REQUIRE(fleet.ok());
  return std::move(*fleet);
}

Json pool(const std::string& name, const std::string& vendor, int nodes, int gpus, double price = 1.0) {
  bool amd = vendor == "amd";
  return {{"name", name},
          {"count", nodes},
          {"region", "us-east"},
          {"gpu",
           {{"vendor", vendor}, {"model", amd ? "MI300X" : "H100"}, {"family", amd ? "instinct" : "hopper"},
            {"class", "datacenter"}, {"count", gpus}, {"vram_gb", 80}}},
          {"runtime", {{"name", amd ? "rocm" : "cuda"}, {"version", amd ? "6.2" : "12.4"}}},
          {"price_per_gpu_hour", price}};
}

TestServerOptions with_fleet(jgrid::exec::Fleet fleet) {
  TestServerOptions options;
  options.fleet = std::move(fleet);
  return options;
}

// Only the fields docs/api.md marks `|null` may be null, at any depth.
void require_no_stray_null(const Json& value, const std::string& path) {
  static const std::set<std::string> k_nullable = {"managed_capacity_available", "unavailable_reason",
                                                   "unavailable_code"};
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) {
      INFO(path + "." + it.key());
      if (it->is_null()) CHECK(k_nullable.count(it.key()) == 1);
      require_no_stray_null(*it, path + "." + it.key());
    }
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) require_no_stray_null(value[i], path + "[" + std::to_string(i) + "]");
  }
}

std::vector<std::string> rule_ids_of(const Json& checks) {
  std::vector<std::string> out;
  for (const auto& check : checks) out.push_back(check.at("rule"));
  return out;
}

bool contains(const std::vector<std::string>& items, const std::string& item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

std::string assigned_vendor(const TestServer& server, const std::string& id) {
  Json job = server.wait_job(id, [](const Json& j) { return j.contains("assigned_node_id"); });
  return job.at("gpu").at("vendor");
}

}  // namespace

TEST_CASE("api estimate returns every field of docs/api.md §2.1 for the ROCm example", "[api][rocm]") {
  TestServer server;
  auto reply = server.post("/v1/jobs/estimate", rocm_example());
  INFO(reply.body);
  REQUIRE(reply.status == 200);
  const Json& e = reply.json;
  CHECK(e["available"] == true);
  CHECK(e["can_submit"] == true);

  const Json& screening = e["screening"];
  CHECK(screening["can_submit"] == true);
  CHECK(screening["blocked_checks"] == Json::array());
  CHECK(screening["warnings"] == Json::array());
  CHECK(screening["fixes"].is_array());
  REQUIRE(screening["checks"].size() == 18);
  for (const auto& check : screening["checks"]) {
    for (auto key : {"rule", "status", "field", "message", "fix"}) CHECK(check[key].is_string());
    CHECK(check["status"] == "pass");
  }

  const Json& c = e["classification"];
  CHECK(c["workload_type"] == "inference");
  CHECK(c["requires_gpu"] == true);
  CHECK(c["gpu_vendor"] == "amd");
  CHECK(c["runtime"] == "rocm");
  CHECK(c["framework"] == "pytorch-rocm");
  CHECK(c["acceleration_requirement"] == "gpu");
  CHECK(c["confidence"] == "high");
  CHECK_FALSE(c["reasons"].empty());

  const Json& r = e["routing"];
  CHECK(r["route_status"] == "available");
  CHECK(r["selected_route_source"] == "live");
  CHECK(r["selection_reason"].is_string());
  REQUIRE(r["selected_node_id"].is_string());
  auto nodes = server.get("/v1/nodes").json["nodes"];
  REQUIRE(r["candidates"].size() == nodes.size());
  std::set<std::string> amd_nodes;
  for (const auto& node : nodes)
    if (node["gpu_vendor"] == "amd") amd_nodes.insert(node["node_id"].get<std::string>());
  CHECK(amd_nodes.count(r["selected_node_id"].get<std::string>()) == 1);
  int feasible = 0;
  for (const auto& candidate : r["candidates"]) {
    CHECK(candidate["node_id"].is_string());
    CHECK(candidate["gpu_model"].is_string());
    CHECK(candidate["score"].is_number());
    bool amd = amd_nodes.count(candidate["node_id"].get<std::string>()) == 1;
    CHECK(candidate["feasible"] == amd);  // the default fleet is idle: every AMD node fits, no NVIDIA node
    CHECK(candidate["reasons"].empty() == amd);
    feasible += amd;
    if (candidate["node_id"] == r["selected_node_id"]) CHECK(r["selected_accelerator"] == candidate["gpu_model"]);
  }

  CHECK(e["capacity"]["live_capacity_available"] == true);
  CHECK(e["capacity"]["live_candidate_count"] == feasible);
  CHECK(e["capacity"]["managed_capacity_available"].is_null());
  CHECK(e["capacity"]["managed_profile_count"] == 0);
  CHECK(e["capacity"]["estimate_source"] == "simulated_fleet");
  CHECK(e["capacity_status"]["availability"] == "available");
  CHECK(e["capacity_status"]["immediate_capacity_confirmed"] == true);

  double low = e["estimated_cost_min_usd"], cost = e["estimated_cost_usd"], high = e["estimated_cost_max_usd"];
  CHECK(low > 0);
  CHECK(low <= cost);
  CHECK(cost <= high);
  CHECK(e["estimated_hourly_rate_usd"].get<double>() > 0);
  CHECK(e["estimated_runtime_min_minutes"].get<int>() <= e["estimated_runtime_max_minutes"].get<int>());
  CHECK(e["estimated_queue_wait_seconds"] == 0);
  CHECK(e["likely_gpu_type"] == r["selected_accelerator"]);
  CHECK(e["likely_gpu_family"].is_string());
  CHECK(e["routed_gpu_tier"].is_string());
  CHECK(e["candidate_count"] == feasible);
  CHECK(e["constraints_relaxed"] == Json::array());
  CHECK(e["constraints_relaxed_applied"] == false);
  CHECK(e["confidence"] == "high");
  CHECK(e["explanation"].is_string());
  CHECK(e["unavailable_reason"].is_null());
  CHECK(e["unavailable_code"].is_null());
  CHECK(e["warnings"] == Json::array());
  require_no_stray_null(e, "estimate");
  CHECK(server.count_jobs() == 0);
}

TEST_CASE("api estimate of a blocked request is 200 with the refusal in the body", "[api][rocm]") {
  TestServer server;
  auto reply = server.post("/v1/jobs/estimate", patched(rocm_example(), {{"command", {"nvidia-smi"}}}));
  INFO(reply.body);
  REQUIRE(reply.status == 200);
  CHECK(reply.json["can_submit"] == false);
  CHECK(reply.json["screening"]["blocked_checks"] == Json::array({"command.nvidia_tool"}));
  CHECK(reply.json["unavailable_code"] == "SCREENING_REJECTED");
  CHECK(reply.json["unavailable_reason"].get<std::string>().find("command.nvidia_tool") != std::string::npos);
  require_no_stray_null(reply.json, "estimate");
}

TEST_CASE("api estimate lists each node with its reasons when the job cannot be placed now", "[api][rocm]") {
  TestServer server(with_fleet(fleet_of({pool("amd", "amd", 2, 1), pool("nv", "nvidia", 1, 8)})));
  Json hold = patched(rocm_example(), {{"sim", {{"duration_s", 36000}}}});
  for (int i = 0; i < 2; ++i)
    server.wait_job(server.submit(hold), [](const Json& j) { return j.contains("assigned_node_id"); });

  auto reply = server.post("/v1/jobs/estimate", rocm_example());
  INFO(reply.body);
  REQUIRE(reply.status == 200);
  CHECK(reply.json["can_submit"] == true);
  CHECK(reply.json["routing"]["route_status"] == "queued");
  CHECK_FALSE(reply.json["routing"].contains("selected_node_id"));
  CHECK(reply.json["capacity_status"]["availability"] == "limited");
  CHECK(reply.json["capacity_status"]["immediate_capacity_confirmed"] == false);
  CHECK(reply.json["estimated_queue_wait_seconds"].get<int>() > 0);
  const Json& candidates = reply.json["routing"]["candidates"];
  REQUIRE(candidates.size() == 3);
  for (const auto& candidate : candidates) {
    INFO(candidate.dump());
    CHECK(candidate["feasible"] == false);
    REQUIRE(candidate["reasons"].size() >= 1);
    std::string reason = candidate["reasons"][0];
    bool nvidia = candidate["gpu_model"] == "H100";
    CHECK(reason == (nvidia ? "vendor nvidia ≠ amd" : "0 of 1 GPUs free"));
  }
  std::string explanation = reply.json["explanation"];
  CHECK(explanation.find("2 nodes: 0 of 1 GPUs free") != std::string::npos);
  CHECK(explanation.find("1 node: vendor nvidia ≠ amd") != std::string::npos);
}

TEST_CASE("api estimate follows optimize_for: cost picks the cheapest compatible node, speed the fastest class",
          "[api][rocm]") {
  TestServer server;  // default fleet: MI300X 2.10, MI250 1.40, W7900 0.60 (workstation) for AMD
  auto pick = [&](const std::string& mode) {
    auto reply = server.post("/v1/jobs/estimate", patched(rocm_example(), {{"optimize_for", mode}}));
    REQUIRE(reply.status == 200);
    return reply.json;
  };
  Json cost = pick("cost");
  CHECK(cost["routing"]["selected_accelerator"] == "Radeon PRO W7900");
  CHECK(cost["estimated_hourly_rate_usd"] == 0.6);
  Json speed = pick("speed");
  CHECK(speed["routing"]["selected_accelerator"] == "MI300X");
  CHECK(speed["routed_gpu_tier"] == "datacenter");
  double cheapest = 1e9;
  Json nodes = server.get("/v1/nodes").json["nodes"];
  for (const auto& node : nodes)
    if (node["gpu_vendor"] == "amd") cheapest = std::min(cheapest, node["price_per_gpu_hour"].get<double>());
  CHECK(cost["estimated_hourly_rate_usd"] == cheapest);
}

TEST_CASE("api submit with dry_run returns the estimate's plan and creates nothing", "[api][rocm]") {
  TestServer server;
  auto estimate = server.post("/v1/jobs/estimate", rocm_example());
  auto dry = server.post("/v1/jobs?dry_run=1", rocm_example());
  INFO(dry.body);
  REQUIRE(dry.status == 200);
  CHECK(dry.json["dry_run"] == true);
  Json plan = dry.json;
  plan.erase("dry_run");
  CHECK(plan == estimate.json);

  auto blocked = server.post("/v1/jobs?dry_run=true", patched(rocm_example(), {{"command", {"nvidia-smi"}}}));
  CHECK(blocked.status == 200);
  CHECK(blocked.json["can_submit"] == false);
  auto mcp = server.post("/v1/mcp/jobs?dry_run=1", rocm_example());
  CHECK(mcp.status == 200);
  CHECK(mcp.json["ok"] == true);
  CHECK(mcp.json["data"]["estimated_cost_usd"].is_object());

  auto no_image = server.post("/v1/jobs?dry_run=1", Json{{"workload_type", "inference"}});
  CHECK(no_image.status == 400);  // validated as a submit
  auto bad = server.post("/v1/jobs?dry_run=maybe", rocm_example());
  CHECK(bad.status == 400);
  CHECK(bad.json["error"]["message"].get<std::string>().find("dry_run") != std::string::npos);

  CHECK(server.count_jobs() == 0);
  for (const auto& event : server.store().list_events(jgrid::store::EventQuery{})) CHECK(event.job_id.empty());
  CHECK(server.get("/v1/jobs").json["jobs"].empty());
}

TEST_CASE("api submit screens: the example passes every rule, a CUDA image or nvidia-smi is 422", "[api][rocm]") {
  TestServer server;
  std::string id = server.submit(rocm_example());
  Json job = server.wait_terminal(id);
  CHECK(job["status"] == "completed");
  CHECK(job["gpu"]["vendor"] == "AMD");
  for (const auto& check : job["screening"]["checks"]) CHECK(check["status"] == "pass");

  auto cuda = server.post("/v1/jobs", patched(rocm_example(), {{"image", "nvidia/cuda:12.4.0-runtime-ubuntu22.04"}}));
  INFO(cuda.body);
  REQUIRE(cuda.status == 422);
  const Json& details = cuda.json["error"]["details"];
  CHECK(cuda.json["error"]["code"] == "SCREENING_REJECTED");
  CHECK(contains(details["blocked_checks"].get<std::vector<std::string>>(), "image.cuda_name"));
  CHECK(details["checks"].size() == 18);
  CHECK(details["fixes"][0].get<std::string>().find("rocm/pytorch") != std::string::npos);

  auto smi = server.post("/v1/jobs", patched(rocm_example(), {{"command", {"nvidia-smi"}}}));
  REQUIRE(smi.status == 422);
  CHECK(smi.json["error"]["details"]["blocked_checks"] == Json::array({"command.nvidia_tool"}));
  CHECK(server.count_jobs() == 1);
}

TEST_CASE("api a CUDA image without intent runs on NVIDIA only, and is 503 on an AMD-only fleet", "[api][rocm]") {
  Json request = {{"workload_type", "inference"}, {"image", "nvcr.io/nvidia/pytorch:24.01-py3"},
                  {"command", {"python", "train.py"}}, {"sim", {{"duration_s", 36000}}}};
  {
    TestServer server;
    for (int i = 0; i < 3; ++i) {
      std::string id = server.submit(request);
      CHECK(assigned_vendor(server, id) == "NVIDIA");
      Json job = server.get("/v1/jobs/" + id).json;
      CHECK(rule_ids_of(job["screening"]["warnings"]) == std::vector<std::string>{"intent.unknown_cuda_heavy"});
    }
  }
  TestServer amd_only(with_fleet(fleet_of({pool("amd", "amd", 2, 8)})));
  auto reply = amd_only.post("/v1/jobs", request);
  INFO(reply.body);
  REQUIRE(reply.status == 503);
  CHECK(reply.json["error"]["code"] == "CAPACITY_UNAVAILABLE");
  std::string message = reply.json["error"]["message"];
  CHECK(message.find("declare ROCm compatibility") != std::string::npos);
  CHECK(message.find("NVIDIA route") != std::string::npos);
  CHECK_FALSE(reply.header("Retry-After").empty());
  CHECK(amd_only.count_jobs() == 0);
  auto estimate = amd_only.post("/v1/jobs/estimate", request);
  CHECK(estimate.json["routing"]["route_status"] == "unavailable");
  CHECK(estimate.json["unavailable_code"] == "CAPACITY_UNAVAILABLE");
  for (const auto& candidate : estimate.json["routing"]["candidates"])
    CHECK(candidate["reasons"][0] == "vendor amd ≠ nvidia");
}

TEST_CASE("api two AMD GPUs run two ROCm jobs; the third waits for capacity and runs when one ends", "[api][rocm]") {
  TestServer server(with_fleet(fleet_of({pool("amd", "amd", 1, 2)})));
  Json hold = patched(rocm_example(), {{"sim", {{"duration_s", 36000}}}});
  std::string first = server.submit(hold), second = server.submit(hold), third = server.submit(rocm_example());
  auto running = [](const Json& j) { return j["status"] == "running"; };
  server.wait_job(first, running);
  server.wait_job(second, running);
  Json waiting = server.wait_job(third, [](const Json& j) { return j.contains("delay_reason"); });
  CHECK(waiting["status"] == "queued");
  CHECK(waiting["delay_reason"]["code"] == "CAPACITY_UNAVAILABLE");
  REQUIRE(server.post("/v1/jobs/" + first + "/cancel", Json::object()).status == 200);
  Json done = server.wait_terminal(third);
  CHECK(done["status"] == "completed");
  CHECK_FALSE(done.contains("delay_reason"));
}

TEST_CASE("api same seed, fleet and submissions give the same placements", "[api][rocm]") {
  auto placements = [](std::uint64_t seed) {
    TestServer server(with_fleet(fleet_of({pool("a", "amd", 6, 2), pool("n", "nvidia", 3, 2)}, seed)));
    std::vector<std::string> nodes;
    for (int i = 0; i < 8; ++i) {
      Json body = patched(rocm_example(), {{"sim", {{"duration_s", 36000}}}});
      if (i % 3 == 2) body = {{"workload_type", "batch"}, {"image", "busybox:latest"}, {"sim", {{"duration_s", 36000}}}};
      std::string id = server.submit(body);
      Json job = server.wait_job(id, [](const Json& j) { return j.contains("assigned_node_id"); });
      nodes.push_back(job.at("assigned_node_id").get<std::string>());
    }
    return nodes;
  };
  auto first = placements(7);
  CHECK(placements(7) == first);
}
