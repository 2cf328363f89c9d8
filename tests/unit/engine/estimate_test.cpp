#include "engine/estimate.hpp"

#include <set>

#include "engine_fixture.hpp"

using namespace jgrid;
using jgrid::test::make_node;
using jgrid::test::make_spec;

namespace {

model::Json estimate_for(const model::JobSpec& spec, const std::vector<model::Node>& nodes,
                         model::Framing framing = model::Framing::plain) {
  return engine::estimate_body(spec, route::place(spec, nodes, 42), nodes, framing);
}

// api.md §1.1: only these fields may be null.
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
  CHECK(body["classification"]["gpu_vendor"] == "amd");
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
