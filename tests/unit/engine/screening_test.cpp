#include "engine/screening.hpp"

#include "engine_fixture.hpp"

using namespace jgrid;
using jgrid::test::example_image;
using jgrid::test::example_request;
using jgrid::test::make_spec;

TEST_CASE("engine::image_metadata reads the fleet catalog, unknown otherwise", "[engine]") {
  exec::Fleet fleet;
  fleet.images = {example_image()};
  auto known = engine::image_metadata(fleet, "ghcr.io/acme/pytorch-rocm:latest");
  CHECK(known.known);
  CHECK(known.labels.at("io.junglegrid.runtime") == "rocm");
  CHECK(known.env.at("ROCM_VERSION") == "6.2");
  CHECK(known.digest == "sha256:0123");
  auto unknown = engine::image_metadata(fleet, "ghcr.io/acme/other:latest");
  CHECK_FALSE(unknown.known);
  CHECK(unknown.labels.empty());
}

TEST_CASE("engine::screen_spec takes the intent from catalog metadata", "[engine]") {
  exec::Fleet fleet;
  fleet.images = {example_image()};
  model::JobSpec spec = make_spec("");
  spec.image = "ghcr.io/acme/pytorch-rocm:latest";
  auto screening = engine::screen_spec(fleet, spec);
  CHECK(screening.intent.explicit_rocm);  // the image's io.junglegrid.runtime label
  CHECK(screening.intent.vendor == "amd");
}

TEST_CASE("engine::screening_error names the blocking rules with checks and fixes", "[engine]") {
  model::JobSpec spec = example_request();
  spec.image = "nvidia/cuda:12.4.0-runtime-ubuntu22.04";
  spec.command = {"nvidia-smi"};
  Error error = engine::screening_error(screen::screen(spec, {}));
  CHECK(error.code == "SCREENING_REJECTED");
  CHECK(error.message == "screening blocked the workload: image.cuda_name, command.nvidia_tool");
  CHECK(error.details["blocked_checks"] == model::Json::array({"image.cuda_name", "command.nvidia_tool"}));
  CHECK(error.details["checks"].size() == screen::rule_ids().size());
  CHECK(error.details["checks"][0].contains("fix"));
  CHECK(error.details["fixes"].size() >= 2);
}

TEST_CASE("screen::job_screening_json and engine::screened_event carry checks and warnings", "[engine]") {
  auto clean = screen::screen(example_request(), {});
  auto doc = model::Json::parse(screen::job_screening_json(clean));
  CHECK(doc["checks"].size() == screen::rule_ids().size());
  CHECK(doc["warnings"].empty());
  auto event = engine::screened_event(clean);
  CHECK(event.type == "job.screened");
  CHECK(event.source == "screener");
  CHECK(event.level == "info");
  CHECK(event.message == "Screening passed: " + std::to_string(screen::rule_ids().size()) + " checks");

  model::JobSpec cuda = make_spec("");
  cuda.image = "nvcr.io/nvidia/pytorch:24.01-py3";
  auto warned = screen::screen(cuda, {});
  CHECK(model::Json::parse(screen::job_screening_json(warned))["warnings"][0]["rule"] == "intent.unknown_cuda_heavy");
  auto warning = engine::screened_event(warned);
  CHECK(warning.level == "warning");
  CHECK(warning.data["warnings"] == model::Json::array({"intent.unknown_cuda_heavy"}));
  CHECK(warning.data["intent"]["gpu_vendor"] == "nvidia");
  CHECK(warning.data["intent"]["unknown_cuda_heavy"] == true);
  CHECK(warning.message.find("intent.unknown_cuda_heavy") != std::string::npos);
}
