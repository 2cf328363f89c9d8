#include <catch2/catch.hpp>

#include "jgrid/model/job_spec.hpp"

using namespace jgrid::model;

namespace {

// A spec with every member away from its default.
JobSpec full_spec() {
  JobSpec spec;
  spec.name = "train-1";
  spec.workload_type = WorkloadType::fine_tuning;
  spec.image = "rocm/pytorch:6.2";
  spec.command = {"python", "train.py"};
  spec.environment = {{"A", "1"}, {"SECRET", "x"}};
  spec.gpu_vendor = "amd";
  spec.runtime = "rocm";
  spec.framework = "pytorch-rocm";
  spec.labels = {{"team", "ml"}};
  spec.gpu_count = 2;
  spec.requires_gpu = false;
  spec.gpu_type = "MI300X";
  spec.gpu_class = "datacenter";
  spec.min_vram_gb = 80;
  spec.model_size_gb = 13.5;
  spec.disk_gb = 100;
  spec.constraints = {{"region_mode", "strict"}, {"avoid_gpu_families", {"radeon"}}};
  spec.optimize_for = "cost";
  spec.priority = "high";
  spec.latency_priority = "low";
  spec.cost_priority = "high";
  spec.timeout_seconds = 12.5;
  spec.input_files = {"inp_1"};
  spec.script_files = {"inp_2", "inp_3"};
  spec.expected_artifacts = {"/workspace/artifacts/out.json"};
  spec.metadata = {{"client_request_id", "r1"}};
  spec.callback = CallbackSpec{"http://cb.test/", "tok", {{"m", 1}}};
  spec.echoed = {{"notes", "hello"}};
  spec.sim = {{"duration_s", 3}};
  return spec;
}

}  // namespace

TEST_CASE("model::to_string and parse_workload_type agree", "[model]") {
  for (auto type : {WorkloadType::inference, WorkloadType::training, WorkloadType::fine_tuning, WorkloadType::batch})
    CHECK(parse_workload_type(to_string(type)) == type);
  CHECK(to_string(WorkloadType::fine_tuning) == "fine-tuning");
  CHECK(parse_workload_type("fine_tuning") == WorkloadType::fine_tuning);
  CHECK_FALSE(parse_workload_type("render"));
}

TEST_CASE("model::spec_to_doc round trips every member", "[model]") {
  JobSpec spec = full_spec();
  Json doc = spec_to_doc(spec);
  auto back = spec_from_doc(Json::parse(doc.dump()));
  REQUIRE(back.ok());
  CHECK(spec_to_doc(back.value()) == doc);
  CHECK(back->name == spec.name);
  CHECK(back->workload_type == spec.workload_type);
  CHECK(back->environment == spec.environment);
  CHECK(back->model_size_gb == spec.model_size_gb);
  CHECK(back->timeout_seconds == spec.timeout_seconds);
  CHECK_FALSE(back->requires_gpu);
  REQUIRE(back->callback);
  CHECK(back->callback->auth_token == "tok");
  CHECK(back->sim == spec.sim);
}

TEST_CASE("model::spec_to_doc round trips a default spec with absent optionals", "[model]") {
  JobSpec spec;
  auto back = spec_from_doc(spec_to_doc(spec));
  REQUIRE(back.ok());
  CHECK_FALSE(back->min_vram_gb);
  CHECK_FALSE(back->timeout_seconds);
  CHECK_FALSE(back->callback);
  CHECK(back->sim.is_null());
  CHECK(spec_to_doc(back.value()) == spec_to_doc(spec));
}

TEST_CASE("model::spec_from_doc refuses documents it did not write", "[model]") {
  CHECK(spec_from_doc(Json::array()).error().code == "INTERNAL");
  Json doc = spec_to_doc(full_spec());
  doc["workload_type"] = "render";
  CHECK(spec_from_doc(doc).error().code == "INTERNAL");
  doc = spec_to_doc(full_spec());
  doc.erase("command");
  CHECK(spec_from_doc(doc).error().code == "INTERNAL");
  doc = spec_to_doc(full_spec());
  doc["gpu_count"] = "two";
  CHECK(spec_from_doc(doc).error().code == "INTERNAL");
}

TEST_CASE("model::effective_vendor is stated, implied by ROCm hints, else any", "[model]") {
  JobSpec spec;
  CHECK(effective_vendor(spec) == "any");
  spec.gpu_vendor = "nvidia";
  CHECK(effective_vendor(spec) == "nvidia");
  spec.gpu_vendor = "any";
  CHECK(effective_vendor(spec) == "any");
  spec.runtime = "rocm";
  CHECK(effective_vendor(spec) == "amd");
  spec.runtime.clear();
  spec.framework = "vllm-rocm";
  CHECK(effective_vendor(spec) == "amd");
  spec.framework = "pytorch-cuda";
  CHECK(effective_vendor(spec) == "any");
}
