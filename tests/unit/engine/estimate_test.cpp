#include "engine/estimate.hpp"

#include <set>

#include "engine_fixture.hpp"
#include "jgrid/screen/screen.hpp"

using namespace jgrid;
using jgrid::test::make_node;
using jgrid::test::make_spec;

namespace {

model::Json estimate_for(const model::JobSpec& spec, const std::vector<model::Node>& nodes,
                         model::Framing framing = model::Framing::plain) {
  auto screening = screen::screen(spec, {});
  return engine::estimate_body(spec, screening, route::report(spec, screening.intent, nodes, 42), framing);
}

// docs/api.md §1.1: only these fields may be null.
void check_no_stray_null(const model::Json& value, const std::string& path = "") {
  static const std::set<std::string> k_nullable = {"managed_capacity_available", "unavailable_reason",
                                                   "unavailable_code"};
  if (value.is_object()) {
    for (const auto& [key, item] : value.items()) {
      if (item.is_null()) CHECK(k_nullable.count(key) == 1);
      check_no_stray_null(item, path + "." + key);
    }
  } else if (value.is_array()) {
    for (const auto& item : value) check_no_stray_null(item, path);
  }
}

}  // namespace

TEST_CASE("engine::estimate_body describes an available AMD route", "[engine]") {
  std::vector<model::Node> nodes = {make_node("mi300x-1", "amd", 8, 2.0), make_node("h100-1", "nvidia", 8, 3.0)};
  model::JobSpec spec = make_spec("amd");
  spec.runtime = "rocm";
  spec.framework = "pytorch-rocm";
  auto body = estimate_for(spec, nodes);
  CHECK(body["available"] == true);
  CHECK(body["can_submit"] == true);
  CHECK(body["screening"]["blocked_checks"].empty());
  CHECK(body["screening"]["can_submit"] == true);
  CHECK(body["classification"]["gpu_vendor"] == "amd");
  CHECK(body["classification"]["confidence"] == "high");
  CHECK(body["classification"]["reasons"].size() == 3);
  CHECK(body["classification"]["runtime"] == "rocm");
  CHECK(body["classification"]["framework"] == "pytorch-rocm");
  CHECK(body["classification"]["acceleration_requirement"] == "gpu");
  CHECK(body["routing"]["route_status"] == "available");
  CHECK(body["routing"]["selected_accelerator"] == "MI300X");
  CHECK(body["routing"]["selected_route_source"] == "live");
  CHECK(body["routing"]["candidates"].size() == 2);
  CHECK(body["routing"]["candidates"][1]["feasible"] == false);
  CHECK(body["capacity"]["estimate_source"] == "simulated_fleet");
  CHECK(body["capacity"]["managed_capacity_available"].is_null());
  CHECK(body["capacity_status"]["immediate_capacity_confirmed"] == true);
  CHECK(body["estimated_cost_usd"].is_number());
  CHECK(body["estimated_hourly_rate_usd"] == 2.0);
  CHECK(body["estimated_cost_min_usd"].get<double>() <= body["estimated_cost_max_usd"].get<double>());
  CHECK(body["likely_gpu_type"] == "MI300X");
  CHECK(body["routed_gpu_tier"] == "datacenter");
  CHECK(body["candidate_count"] == 1);
  CHECK(body["unavailable_reason"].is_null());
  CHECK(body["constraints_relaxed_applied"] == false);
  check_no_stray_null(body);
}

TEST_CASE("engine::estimate_body gives min and max on the envelope framing", "[engine]") {
  auto body = estimate_for(make_spec("amd"), {make_node("mi300x-1", "amd", 8)}, model::Framing::envelope);
  REQUIRE(body["estimated_cost_usd"].is_object());
  CHECK(body["estimated_cost_usd"]["min"] == body["estimated_cost_min_usd"]);
  CHECK(body["estimated_cost_usd"]["max"] == body["estimated_cost_max_usd"]);
}

TEST_CASE("engine::estimate_body explains why a job cannot run", "[engine]") {
  auto body = estimate_for(make_spec("nvidia"), {make_node("mi300x-1", "amd", 8)});
  CHECK(body["available"] == false);
  CHECK(body["can_submit"] == false);
  CHECK(body["routing"]["route_status"] == "unavailable");
  CHECK(body["capacity_status"]["availability"] == "unavailable");
  CHECK(body["unavailable_code"] == "CAPACITY_UNAVAILABLE");
  CHECK(body["unavailable_reason"] == body["explanation"]);
  CHECK_FALSE(body.contains("likely_gpu_type"));
  check_no_stray_null(body);
}

TEST_CASE("engine::estimate_runtime uses the sim duration, else the workload, capped by the timeout", "[engine]") {
  model::JobSpec spec = make_spec("amd");
  spec.sim = {{"duration_s", 120}};
  CHECK(engine::estimate_runtime(spec).max_minutes == Approx(2.0));
  spec.sim = nullptr;
  spec.workload_type = model::WorkloadType::training;
  auto training = engine::estimate_runtime(spec);
  CHECK(training.min_minutes < training.expected_minutes);
  CHECK(training.expected_minutes < training.max_minutes);
  spec.timeout_seconds = 60;
  CHECK(engine::estimate_runtime(spec).max_minutes == Approx(1.0));
}

TEST_CASE("engine::estimate_body reports a blocked screening and refuses submission", "[engine][rocm]") {
  model::JobSpec spec = make_spec("amd");
  spec.image = "nvidia/cuda:12.4.0-runtime-ubuntu22.04";
  auto body = estimate_for(spec, {make_node("mi300x-1", "amd", 8)});
  CHECK(body["can_submit"] == false);
  CHECK(body["available"] == false);
  CHECK(body["screening"]["can_submit"] == false);
  CHECK(body["screening"]["blocked_checks"] == model::Json::array({"image.cuda_name"}));
  CHECK(body["screening"]["checks"].size() == screen::rule_ids().size());
  CHECK(body["unavailable_code"] == "SCREENING_REJECTED");
  CHECK(body["unavailable_reason"] == "screening blocked the workload: image.cuda_name");
  CHECK(body["routing"]["route_status"] == "available");  // capacity exists; the workload is the problem
  check_no_stray_null(body);
}

TEST_CASE("engine::estimate_body classifies from the screener's intent", "[engine][rocm]") {
  model::JobSpec spec = make_spec("");
  spec.image = "nvcr.io/nvidia/pytorch:24.01-py3";
  auto body = estimate_for(spec, {make_node("mi300x-1", "amd", 8), make_node("h100-1", "nvidia", 8)});
  CHECK(body["classification"]["gpu_vendor"] == "nvidia");
  CHECK(body["classification"]["runtime"] == "cuda");
  CHECK(body["classification"]["confidence"] == "medium");
  REQUIRE(body["classification"]["reasons"].size() == 1);
  CHECK(body["classification"]["reasons"][0].get<std::string>().find("CUDA-only") != std::string::npos);
  CHECK(body["can_submit"] == true);
  CHECK(body["routing"]["selected_node_id"] == "node_h100-1");
  REQUIRE(body["warnings"].size() == 1);
  CHECK(body["warnings"][0].get<std::string>().rfind("intent.unknown_cuda_heavy: ", 0) == 0);
  CHECK(body["screening"]["warnings"][0]["rule"] == "intent.unknown_cuda_heavy");

  // No ROCm evidence: NVIDIA capacity only, so an AMD-only fleet cannot take it.
  auto none = estimate_for(make_spec(""), {make_node("mi300x-1", "amd", 8)});
  CHECK(none["classification"]["gpu_vendor"] == "nvidia");
  CHECK(none["classification"]["runtime"] == "cuda");
  CHECK(none["classification"]["confidence"] == "low");
  CHECK(none["classification"]["unknown_stack"] == true);
  CHECK(none["classification"]["image_source"] == "name only");
  CHECK(none["can_submit"] == false);
  CHECK(none["explanation"].get<std::string>().find("never placed on AMD") != std::string::npos);
  CHECK(none["explanation"].get<std::string>().find("declare gpu_vendor: amd and runtime: rocm") != std::string::npos);
  CHECK(none["screening"]["warnings"][0]["rule"] == "intent.no_rocm_evidence");
}

TEST_CASE("engine::estimate lists every node with its reasons when the job cannot be placed now", "[engine][rocm]") {
  jgrid::test::EngineFixture f({make_node("mi300x-1", "amd", 2), make_node("mi300x-2", "amd", 8),
                                make_node("h100-1", "nvidia", 8)});
  f.submit_running(make_spec("amd", 2));
  f.submit_running(make_spec("amd", 8));
  auto body = f.engine->estimate(make_spec("amd", 2), model::Framing::plain);
  CHECK(body["can_submit"] == true);
  CHECK(body["routing"]["route_status"] == "queued");
  CHECK(body["capacity_status"]["availability"] == "limited");
  CHECK(body["estimated_queue_wait_seconds"].get<int>() > 0);
  CHECK(body["likely_gpu_type"] == "MI300X");
  const auto& candidates = body["routing"]["candidates"];
  REQUIRE(candidates.size() == 3);
  CHECK(candidates[0]["node_id"] == "node_mi300x-1");
  CHECK(candidates[0]["reasons"] == model::Json::array({"0 of 2 GPUs free"}));
  CHECK(candidates[1]["reasons"] == model::Json::array({"0 of 8 GPUs free"}));
  CHECK(candidates[2]["reasons"] == model::Json::array({"vendor nvidia ≠ amd"}));
  for (const auto& c : candidates) CHECK(c["feasible"] == false);
  CHECK(body["explanation"] ==
        "no node has free capacity now: 1 node: 0 of 2 GPUs free; 1 node: 0 of 8 GPUs free; "
        "1 node: vendor nvidia ≠ amd");
  CHECK(f.store->count_jobs() == 2);
}

TEST_CASE("engine::estimate works without an image", "[engine]") {
  jgrid::test::EngineFixture f({make_node("mi300x-1", "amd", 8), make_node("h100-1", "nvidia", 8)});
  model::JobSpec spec;
  spec.workload_type = model::WorkloadType::training;
  auto body = f.engine->estimate(spec, model::Framing::plain);
  CHECK(body["can_submit"] == true);
  CHECK(body["classification"]["gpu_vendor"] == "nvidia");  // nothing says ROCm
  CHECK(body["routing"]["candidates"].size() == 2);
  CHECK(body["candidate_count"] == 1);
  CHECK(body["routing"]["selected_node_id"] == "node_h100-1");
}
