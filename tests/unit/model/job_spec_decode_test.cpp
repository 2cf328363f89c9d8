#include <catch2/catch.hpp>

#include "jgrid/model/job_spec.hpp"

using jgrid::model::decode_job_spec;
using jgrid::model::JobSpec;
using jgrid::model::Json;
using jgrid::model::SpecMode;
using jgrid::model::WorkloadType;

namespace {

Json minimal() { return Json{{"workload_type", "inference"}, {"image", "rocm/pytorch:latest"}}; }

Json with(Json body, const Json& extra) {
  body.update(extra);
  return body;
}

JobSpec decoded(const Json& extra) {
  auto spec = decode_job_spec(with(minimal(), extra), SpecMode::submit);
  INFO((spec.ok() ? std::string() : spec.error().message));
  REQUIRE(spec.ok());
  return spec.value();
}

// The decoder refuses `extra` with INVALID_REQUEST naming `field`.
void require_refused(const Json& extra, const std::string& field, SpecMode mode = SpecMode::submit) {
  auto spec = decode_job_spec(with(minimal(), extra), mode);
  INFO("field " << field << " body " << with(minimal(), extra).dump());
  REQUIRE_FALSE(spec.ok());
  CHECK(spec.error().code == "INVALID_REQUEST");
  CHECK(spec.error().details.value("field", "") == field);
  CHECK(spec.error().message.find(field) != std::string::npos);
}

}  // namespace

TEST_CASE("model::decode_job_spec accepts the minimal submit body with defaults", "[model]") {
  JobSpec spec = decoded(Json::object());
  CHECK(spec.workload_type == WorkloadType::inference);
  CHECK(spec.image == "rocm/pytorch:latest");
  CHECK(spec.gpu_count == 1);
  CHECK(spec.requires_gpu);
  CHECK(spec.optimize_for == "balanced");
  CHECK(spec.priority == "balanced");
  CHECK(spec.gpu_vendor.empty());
  CHECK_FALSE(spec.callback);
  CHECK(spec.sim.is_null());
  CHECK(spec.metadata == Json::object());
}

TEST_CASE("model::decode_job_spec refuses a body that is not an object", "[model]") {
  for (const Json& body : {Json::array(), Json("x"), Json(3), Json()}) {
    auto spec = decode_job_spec(body, SpecMode::estimate);
    REQUIRE_FALSE(spec.ok());
    CHECK(spec.error().code == "INVALID_REQUEST");
    CHECK(spec.error().details["field"] == "body");
  }
}

TEST_CASE("model::decode_job_spec reads every workload type case-insensitively", "[model]") {
  CHECK(decoded({{"workload_type", "Training"}}).workload_type == WorkloadType::training);
  CHECK(decoded({{"workload_type", "fine-tuning"}}).workload_type == WorkloadType::fine_tuning);
  CHECK(decoded({{"workload_type", "FINE_TUNING"}}).workload_type == WorkloadType::fine_tuning);
  CHECK(decoded({{"workload_type", "batch"}}).workload_type == WorkloadType::batch);
}

TEST_CASE("model::decode_job_spec names workload_type and the allowed values", "[model]") {
  auto spec = decode_job_spec(with(minimal(), {{"workload_type", "render"}}), SpecMode::submit);
  REQUIRE_FALSE(spec.ok());
  CHECK(spec.error().details["field"] == "workload_type");
  for (const char* allowed : {"inference", "training", "fine-tuning", "batch"})
    CHECK(spec.error().message.find(allowed) != std::string::npos);
  require_refused({{"workload_type", 3}}, "workload_type");
  Json missing = minimal();
  missing.erase("workload_type");
  auto absent = decode_job_spec(missing, SpecMode::estimate);
  REQUIRE_FALSE(absent.ok());
  CHECK(absent.error().details["field"] == "workload_type");
}

TEST_CASE("model::decode_job_spec requires image on submit only", "[model]") {
  Json body = {{"workload_type", "training"}};
  auto submit = decode_job_spec(body, SpecMode::submit);
  REQUIRE_FALSE(submit.ok());
  CHECK(submit.error().details["field"] == "image");
  auto estimate = decode_job_spec(body, SpecMode::estimate);
  REQUIRE(estimate.ok());
  CHECK(estimate->image.empty());
  require_refused({{"image", ""}}, "image");
  require_refused({{"image", "rocm/pytorch latest"}}, "image");
  require_refused({{"image", "rocm/pytorch\n"}}, "image");
  require_refused({{"image", "--privileged"}}, "image");  // would read as an option of the container engine
  require_refused({{"image", "-v/:/host"}}, "image");
  require_refused({{"image", Json::array()}}, "image");
}

TEST_CASE("model::decode_job_spec checks name type and length", "[model]") {
  CHECK(decoded({{"name", "my job"}}).name == "my job");
  CHECK(decoded({{"name", std::string(200, 'a')}}).name.size() == 200);
  require_refused({{"name", std::string(201, 'a')}}, "name");
  require_refused({{"name", 7}}, "name");
}

TEST_CASE("model::decode_job_spec takes command as a list or a shell string, then args", "[model]") {
  using Words = std::vector<std::string>;
  CHECK(decoded({{"command", {"python", "-c", "print(1)"}}}).command == Words{"python", "-c", "print(1)"});
  CHECK(decoded({{"command", "python -c 'print(1 + 2)'"}}).command == Words{"python", "-c", "print(1 + 2)"});
  CHECK(decoded({{"command", {"python"}}, {"args", {"train.py", "--epochs=3"}}}).command ==
        Words{"python", "train.py", "--epochs=3"});
  CHECK(decoded({{"command", "echo"}, {"args", {"$HOME"}}}).command == Words{"echo", "$HOME"});
  require_refused({{"command", "echo 'unterminated"}}, "command");
  require_refused({{"command", {"echo", 5}}}, "command[1]");
  require_refused({{"command", 5}}, "command");
  require_refused({{"args", "x"}}, "args");
}

TEST_CASE("model::decode_job_spec limits command and args to 32 KiB", "[model]") {
  Json body = with(minimal(), {{"command", {"echo"}}, {"args", {std::string(33 * 1024, 'x')}}});
  auto spec = decode_job_spec(body, SpecMode::submit);
  REQUIRE_FALSE(spec.ok());
  CHECK(spec.error().code == "INVALID_REQUEST");
  CHECK(spec.error().message.find("command or args too long") != std::string::npos);
  CHECK(decoded({{"command", {std::string(16 * 1024, 'x')}}}).command.size() == 1);
}

TEST_CASE("model::decode_job_spec reads environment and its env alias", "[model]") {
  CHECK(decoded({{"environment", {{"A", "1"}}}}).environment.at("A") == "1");
  CHECK(decoded({{"env", {{"B", "2"}}}}).environment.at("B") == "2");
  auto spec = decode_job_spec(with(minimal(), {{"environment", {{"FOO", 1}}}}), SpecMode::submit);
  REQUIRE_FALSE(spec.ok());
  CHECK(spec.error().message.rfind("environment.FOO: expected a string", 0) == 0);
  CHECK(spec.error().details["field"] == "environment.FOO");
  require_refused({{"env", {{"BAR", true}}}}, "env.BAR");
  require_refused({{"environment", "A=1"}}, "environment");
  require_refused({{"environment", {{"A=B", "1"}}}}, "environment.A=B");
}

TEST_CASE("model::decode_job_spec limits environment keys and bytes", "[model]") {
  Json many = Json::object();
  for (int i = 0; i < 257; ++i) many["K" + std::to_string(i)] = "v";
  require_refused({{"environment", many}}, "environment");
  require_refused({{"environment", {{"BIG", std::string(65 * 1024, 'x')}}}}, "environment");
  many.erase("K0");
  CHECK(decoded({{"environment", many}}).environment.size() == 256);
}

TEST_CASE("model::decode_job_spec reads accelerator intent case-insensitively", "[model]") {
  JobSpec spec = decoded({{"gpu_vendor", "AMD"}, {"runtime", "ROCm"}, {"framework", "PyTorch-ROCm"}});
  CHECK(spec.gpu_vendor == "amd");
  CHECK(spec.runtime == "rocm");
  CHECK(spec.framework == "pytorch-rocm");
  CHECK(decoded({{"resources", {{"gpu_vendor", "NVIDIA"}}}}).gpu_vendor == "nvidia");
  CHECK(decoded({{"gpu_vendor", "any"}}).gpu_vendor == "any");
  CHECK(decoded({{"runtime", "auto"}}).runtime == "auto");
  require_refused({{"gpu_vendor", "intel"}}, "gpu_vendor");
  require_refused({{"resources", {{"gpu_vendor", "intel"}}}}, "resources.gpu_vendor");
  require_refused({{"runtime", "oneapi"}}, "runtime");
  require_refused({{"framework", 1}}, "framework");
}

TEST_CASE("model::decode_job_spec reads labels as string to string", "[model]") {
  CHECK(decoded({{"labels", {{"io.junglegrid.runtime", "rocm"}}}}).labels.at("io.junglegrid.runtime") == "rocm");
  require_refused({{"labels", "rocm"}}, "labels");
  require_refused({{"labels", {{"amd.com/gpu", 1}}}}, "labels.amd.com/gpu");
  Json many = Json::object();
  for (int i = 0; i < 65; ++i) many["l" + std::to_string(i)] = "v";
  require_refused({{"labels", many}}, "labels");
}

TEST_CASE("model::decode_job_spec reads gpu_count, its alias and requires_gpu", "[model]") {
  CHECK(decoded({{"gpu_count", 4}}).gpu_count == 4);
  CHECK(decoded({{"gpu_count", 2.0}}).gpu_count == 2);
  CHECK(decoded({{"resources", {{"gpu_count", 8}}}}).gpu_count == 8);
  CHECK(decoded({{"gpu_count", 0}}).gpu_count == 0);
  CHECK_FALSE(decoded({{"requires_gpu", false}}).requires_gpu);
  require_refused({{"gpu_count", "two"}}, "gpu_count");
  require_refused({{"gpu_count", -1}}, "gpu_count");
  require_refused({{"gpu_count", 1.5}}, "gpu_count");
  require_refused({{"resources", {{"gpu_count", "x"}}}}, "resources.gpu_count");
  require_refused({{"requires_gpu", "no"}}, "requires_gpu");
  require_refused({{"resources", 3}}, "resources");
}

TEST_CASE("model::decode_job_spec reads routing hints at the top level or in constraints", "[model]") {
  JobSpec top = decoded({{"gpu_type", "MI300X"}, {"gpu_class", "datacenter"}, {"min_vram_gb", 80},
                         {"model_size", 70}, {"disk_gb", 100}});
  CHECK(top.gpu_type == "MI300X");
  CHECK(top.gpu_class == "datacenter");
  CHECK(top.min_vram_gb == 80);
  CHECK(top.model_size_gb == 70);
  CHECK(top.disk_gb == 100);
  CHECK(top.constraints["gpu_type"] == "MI300X");
  CHECK(top.constraints["model_size_gb"] == 70);
  JobSpec nested = decoded({{"constraints", {{"gpu_type", "MI250"}, {"disk_gb", 5}, {"min_vram_gb", 64},
                                             {"max_price_per_hour", 3.5}, {"region_mode", "STRICT"}}}});
  CHECK(nested.gpu_type == "MI250");
  CHECK(nested.disk_gb == 5);
  CHECK(nested.min_vram_gb == 64);
  CHECK(nested.constraints["max_price_per_hour"] == 3.5);
  CHECK(nested.constraints["region_mode"] == "strict");
  CHECK(decoded({{"model_size_gb", 13}, {"model_size", 7}}).model_size_gb == 13);
  CHECK(decoded({{"gpu_type", "A"}, {"constraints", {{"gpu_type", "B"}}}}).gpu_type == "B");  // constraints wins
}

TEST_CASE("model::decode_job_spec takes every constraints member at the top level too", "[model]") {
  // What the hosted API accepts as aliases; a member given both ways: the one in constraints wins.
  JobSpec top = decoded({{"max_price_per_hour", 0.1}, {"gpu_type", "MI300X"}, {"gpu_class", "datacenter"},
                         {"preferred_gpu_family", "instinct"}, {"avoid_gpu_families", {"radeon"}},
                         {"region_preference", "us-east"}, {"region_mode", "STRICT"}, {"latency_priority", "HIGH"},
                         {"cost_priority", "low"}});
  CHECK(top.constraints == Json{{"max_price_per_hour", 0.1}, {"gpu_type", "MI300X"}, {"gpu_class", "datacenter"},
                                {"preferred_gpu_family", "instinct"}, {"avoid_gpu_families", {"radeon"}},
                                {"region_preference", "us-east"}, {"region_mode", "strict"},
                                {"latency_priority", "high"}, {"cost_priority", "low"}});
  JobSpec both = decoded({{"max_price_per_hour", 0.1}, {"region_mode", "strict"}, {"cost_priority", "high"},
                          {"constraints", {{"max_price_per_hour", 5}, {"region_mode", "prefer"}, {"cost_priority", "low"}}}});
  CHECK(both.constraints["max_price_per_hour"] == 5);
  CHECK(both.constraints["region_mode"] == "prefer");
  CHECK(both.cost_priority == "low");
  require_refused({{"max_price_per_hour", "cheap"}}, "max_price_per_hour");
  require_refused({{"avoid_gpu_families", "radeon"}}, "avoid_gpu_families");
  require_refused({{"region_mode", "sometimes"}}, "region_mode");
  require_refused({{"region_preference", 3}}, "region_preference");
}

TEST_CASE("model::decode_job_spec refuses ill-typed hints and constraints", "[model]") {
  require_refused({{"constraints", "cheap"}}, "constraints");
  require_refused({{"gpu_type", 3}}, "gpu_type");
  require_refused({{"min_vram_gb", "lots"}}, "min_vram_gb");
  require_refused({{"model_size", -1}}, "model_size");
  require_refused({{"disk_gb", -5}}, "disk_gb");
  require_refused({{"constraints", {{"disk_gb", "big"}}}}, "constraints.disk_gb");
  require_refused({{"constraints", {{"max_price_per_hour", "1$"}}}}, "constraints.max_price_per_hour");
  require_refused({{"constraints", {{"avoid_gpu_families", "radeon"}}}}, "constraints.avoid_gpu_families");
  require_refused({{"constraints", {{"region_mode", "maybe"}}}}, "constraints.region_mode");
  require_refused({{"constraints", {{"region_preference", 5}}}}, "constraints.region_preference");
  require_refused({{"constraints", {{"latency_priority", "urgent"}}}}, "constraints.latency_priority");
}

TEST_CASE("model::decode_job_spec reads optimize_for, its alias and priorities", "[model]") {
  CHECK(decoded({{"optimize_for", "Cost"}}).optimize_for == "cost");
  CHECK(decoded({{"routing_mode", "speed"}}).optimize_for == "speed");
  JobSpec spec = decoded({{"priority", "high"}, {"latency_priority", "low"}, {"cost_priority", "HIGH"}});
  CHECK(spec.priority == "high");
  CHECK(spec.latency_priority == "low");
  CHECK(spec.cost_priority == "high");
  CHECK(spec.constraints["latency_priority"] == "low");
  CHECK(decoded({{"constraints", {{"cost_priority", "low"}}}}).cost_priority == "low");
  require_refused({{"optimize_for", "fast"}}, "optimize_for");
  require_refused({{"routing_mode", "fast"}}, "routing_mode");
  require_refused({{"priority", "urgent"}}, "priority");
  require_refused({{"latency_priority", 1}}, "latency_priority");
  require_refused({{"cost_priority", "none"}}, "cost_priority");
}

TEST_CASE("model::decode_job_spec requires a positive timeout", "[model]") {
  CHECK(decoded({{"timeout_seconds", 30}}).timeout_seconds == 30);
  CHECK(decoded({{"timeout_seconds", 0.5}}).timeout_seconds == 0.5);
  require_refused({{"timeout_seconds", 0}}, "timeout_seconds");
  require_refused({{"timeout_seconds", -3}}, "timeout_seconds");
  require_refused({{"timeout_seconds", "60"}}, "timeout_seconds");
}

TEST_CASE("model::decode_job_spec reads input and script files in every form", "[model]") {
  using Ids = std::vector<std::string>;
  JobSpec spec = decoded({{"input_files", {"inp_A", {{"input_id", "inp_B"}}}},
                          {"script_files", {{{"input_id", "inp_C"}}}},
                          {"script_file", "inp_D"}});
  CHECK(spec.input_files == Ids{"inp_A", "inp_B"});
  CHECK(spec.script_files == Ids{"inp_C", "inp_D"});
  CHECK(decoded({{"script_file", "inp_E"}}).script_files == Ids{"inp_E"});
  require_refused({{"input_files", "inp_A"}}, "input_files");
  require_refused({{"input_files", {5}}}, "input_files[0]");
  require_refused({{"script_files", {"inp_A", {{"name", "x"}}}}}, "script_files[1]");
  require_refused({{"script_file", 3}}, "script_file");
}

TEST_CASE("model::decode_job_spec normalises expected artifacts under /workspace/artifacts", "[model]") {
  using Paths = std::vector<std::string>;
  CHECK(decoded({{"expected_artifacts", {"/workspace/artifacts/result.json", "/workspace//artifacts/./plots/a.png"}}})
            .expected_artifacts == Paths{"/workspace/artifacts/result.json", "/workspace/artifacts/plots/a.png"});
  require_refused({{"expected_artifacts", {"/workspace/artifacts/../secret"}}}, "expected_artifacts[0]");
  require_refused({{"expected_artifacts", {"/workspace/artifacts/ok", "/etc/passwd"}}}, "expected_artifacts[1]");
  require_refused({{"expected_artifacts", {"result.json"}}}, "expected_artifacts[0]");
  require_refused({{"expected_artifacts", {"/workspace/artifacts/"}}}, "expected_artifacts[0]");
  require_refused({{"expected_artifacts", {"/workspace/artifactsX/a"}}}, "expected_artifacts[0]");
  require_refused({{"expected_artifacts", "/workspace/artifacts/a"}}, "expected_artifacts");
}

TEST_CASE("model::decode_job_spec keeps metadata objects up to 16 KiB", "[model]") {
  CHECK(decoded({{"metadata", {{"client_request_id", "r1"}, {"n", 2}}}}).metadata["n"] == 2);
  require_refused({{"metadata", "x"}}, "metadata");
  require_refused({{"metadata", {{"blob", std::string(17 * 1024, 'x')}}}}, "metadata");
}

TEST_CASE("model::decode_job_spec reads callbacks in all four spellings", "[model]") {
  auto webhook = decoded({{"webhook_url", "http://127.0.0.1:9/hook"}}).callback;
  REQUIRE(webhook);
  CHECK(webhook->url == "http://127.0.0.1:9/hook");
  CHECK(webhook->auth_token.empty());
  auto flat = decoded({{"callback_url", "https://example.test/cb"}, {"callback_auth_token", "tok"},
                       {"callback_metadata", {{"k", "v"}}}})
                  .callback;
  REQUIRE(flat);
  CHECK(flat->url == "https://example.test/cb");
  CHECK(flat->auth_token == "tok");
  CHECK(flat->metadata["k"] == "v");
  auto nested =
      decoded({{"callback", {{"url", "https://example.test/n"}, {"auth_token", "t2"}, {"metadata", {{"a", 1}}}}},
               {"webhook_url", "http://ignored.test/"}})
          .callback;
  REQUIRE(nested);
  CHECK(nested->url == "https://example.test/n");
  CHECK(nested->auth_token == "t2");
  CHECK(nested->metadata["a"] == 1);
  CHECK_FALSE(decoded({{"callback_auth_token", "orphan"}}).callback);
}

TEST_CASE("model::decode_job_spec refuses malformed callbacks", "[model]") {
  require_refused({{"webhook_url", "ftp://x"}}, "webhook_url");
  require_refused({{"callback_url", 5}}, "callback_url");
  require_refused({{"callback", {{"url", "not a url"}}}}, "callback.url");
  require_refused({{"callback", 5}}, "callback");
  require_refused({{"callback_url", "http://x.test/"}, {"callback_metadata", "m"}}, "callback_metadata");
  require_refused({{"callback", {{"url", "http://x.test/"}, {"auth_token", 1}}}}, "callback.auth_token");
}

TEST_CASE("model::decode_job_spec stores echoed fields and sim as sent", "[model]") {
  JobSpec spec = decoded({{"template", "vllm"}, {"notes", "n"}, {"huggingface_credential_id", "hf_1"},
                          {"registry_credential_id", "reg_1"}, {"sim", {{"exit_code", 3}}}});
  CHECK(spec.echoed == Json{{"template", "vllm"}, {"notes", "n"}, {"huggingface_credential_id", "hf_1"},
                            {"registry_credential_id", "reg_1"}});
  CHECK(spec.sim == Json{{"exit_code", 3}});
  require_refused({{"sim", "fail"}}, "sim");
}

TEST_CASE("model::decode_job_spec ignores unknown fields and nulls", "[model]") {
  JobSpec spec = decoded({{"unknown_thing", {{"x", 1}}}, {"gpu_count", nullptr}, {"labels", nullptr}});
  CHECK(spec.gpu_count == 1);
  CHECK(spec.labels.empty());
}

namespace {

// One numeric field at one value: accepted, or refused naming `field` with
// `limit` (the maximum, as the message prints it) in the message.
struct Extreme {
  Json extra;
  std::string field;    // "" : accepted
  std::string limit;
};

std::vector<Extreme> numeric_extremes() {
  auto sim = [](const char* key, Json value) { return Json{{"sim", {{key, value}}}}; };
  return {
      {{{"timeout_seconds", 2'592'000}}, "", ""},
      {{{"timeout_seconds", 2'592'000.5}}, "timeout_seconds", "2592000 (30 days)"},
      {{{"timeout_seconds", 1e16}}, "timeout_seconds", "2592000 (30 days)"},
      {{{"timeout_seconds", 1e308}}, "timeout_seconds", "2592000"},
      {{{"timeout_seconds", 9223372036854775807LL}}, "timeout_seconds", "2592000"},
      {{{"timeout_seconds", 18446744073709551615ULL}}, "timeout_seconds", "2592000"},
      {{{"timeout_seconds", 0}}, "timeout_seconds", "2592000"},
      {{{"timeout_seconds", -1e16}}, "timeout_seconds", "2592000"},
      {{{"timeout_seconds", 1e-9}}, "", ""},
      {{{"gpu_count", 0}}, "", ""},
      {{{"gpu_count", 4096}}, "", ""},
      {{{"gpu_count", 4097}}, "gpu_count", "4096"},
      {{{"gpu_count", -1}}, "gpu_count", "4096"},
      {{{"gpu_count", 1e16}}, "gpu_count", "4096"},
      {{{"gpu_count", 1e308}}, "gpu_count", "4096"},
      {{{"resources", {{"gpu_count", 9223372036854775807LL}}}}, "resources.gpu_count", "4096"},
      {{{"min_vram_gb", 1'048'576}}, "", ""},
      {{{"min_vram_gb", 1'048'577}}, "min_vram_gb", "1048576 (1 PiB)"},
      {{{"constraints", {{"min_vram_gb", 1e308}}}}, "constraints.min_vram_gb", "1048576"},
      {{{"model_size_gb", 1e16}}, "model_size_gb", "1048576"},
      {{{"model_size", 1e16}}, "model_size", "1048576"},
      {{{"disk_gb", -1}}, "disk_gb", "1048576"},
      {{{"constraints", {{"disk_gb", 1e16}}}}, "constraints.disk_gb", "1048576"},
      {{{"max_price_per_hour", 0}}, "", ""},
      {{{"max_price_per_hour", 1'000'000}}, "", ""},
      {{{"max_price_per_hour", 1'000'000.01}}, "max_price_per_hour", "1000000 (USD)"},
      {{{"constraints", {{"max_price_per_hour", 1e308}}}}, "constraints.max_price_per_hour", "1000000"},
      {sim("duration_s", 604'800), "", ""},
      {sim("duration_s", 604'801), "sim.duration_s", "604800 (a week)"},
      {sim("duration_s", 1e16), "sim.duration_s", "604800"},
      {sim("duration_s", -1), "sim.duration_s", "604800"},
      {sim("stdout_every_s", 604'800), "", ""},
      {sim("stdout_every_s", 1e308), "sim.stdout_every_s", "604800"},
      {sim("stdout_every_s", 0), "sim.stdout_every_s", "604800"},
      {sim("exit_code", 255), "", ""},
      {sim("exit_code", 256), "sim.exit_code", "255"},
      {sim("exit_code", -1), "sim.exit_code", "255"},
      {sim("exit_code", 1e16), "sim.exit_code", "255"},
      {sim("duration_s", "NaN"), "", ""},  // not a number: the run refuses it (START_FAILED)
      {{{"timeout_seconds", "NaN"}}, "timeout_seconds", "a number"},
      {{{"timeout_seconds", "Infinity"}}, "timeout_seconds", "a number"},
  };
}

}  // namespace

TEST_CASE("model::decode_job_spec holds every number of a request to its documented range", "[model][limits]") {
  for (const Extreme& extreme : numeric_extremes()) {
    auto spec = decode_job_spec(with(minimal(), extreme.extra), SpecMode::submit);
    INFO(extreme.extra.dump() << " -> " << (spec.ok() ? std::string("accepted") : spec.error().message));
    if (extreme.field.empty()) {
      CHECK(spec.ok());
      continue;
    }
    REQUIRE_FALSE(spec.ok());
    CHECK(spec.error().code == "INVALID_REQUEST");
    CHECK(spec.error().details.value("field", "") == extreme.field);
    CHECK(spec.error().message.rfind(extreme.field + ": ", 0) == 0);
    CHECK(spec.error().message.find(extreme.limit) != std::string::npos);
  }
}

TEST_CASE("model::decode_job_spec limits counts and sizes of lists, labels, constraints and callbacks",
          "[model][limits]") {
  Json paths = Json::array();
  for (int i = 0; i < 256; ++i) paths.push_back("/workspace/artifacts/f" + std::to_string(i));
  CHECK(decoded({{"expected_artifacts", paths}}).expected_artifacts.size() == 256);
  paths.push_back("/workspace/artifacts/one-more");
  require_refused({{"expected_artifacts", paths}}, "expected_artifacts");
  require_refused({{"expected_artifacts", {"/workspace/artifacts/" + std::string(4096, 'a')}}}, "expected_artifacts[0]");
  Json inputs = Json::array();
  for (int i = 0; i < 257; ++i) inputs.push_back("inp_" + std::to_string(i));
  require_refused({{"input_files", inputs}}, "input_files");
  require_refused({{"script_files", inputs}}, "script_files");
  Json labels = Json::object();
  for (int i = 0; i < 17; ++i) labels["k" + std::to_string(i)] = std::string(1000, 'v');
  require_refused({{"labels", labels}}, "labels");
  require_refused({{"constraints", {{"note", std::string(16 * 1024, 'x')}}}}, "constraints");
  require_refused({{"callback", {{"url", "https://example.com/" + std::string(2048, 'a')}}}}, "callback.url");
  require_refused({{"callback", {{"url", "https://example.com/h"}, {"auth_token", std::string(4097, 't')}}}},
                  "callback.auth_token");
  require_refused({{"callback", {{"url", "https://example.com/h"}, {"metadata", {{"m", std::string(16 * 1024, 'm')}}}}}},
                  "callback.metadata");
}

TEST_CASE("model::decode_job_spec refuses control characters in a callback token, which becomes a header",
          "[model][limits]") {
  Json callback = {{"url", "https://example.com/hook"}};
  CHECK(decoded({{"callback", with(callback, {{"auth_token", "tok-123_ABC.~+/="}})}}).callback->auth_token ==
        "tok-123_ABC.~+/=");
  for (const std::string& bad : std::vector<std::string>{"tok\r\nX-Injected: 1", "tok\n", "tok\r", "a\tb",
                                                      std::string("a\0b", 3), "a\x7f", "a\x01"}) {
    require_refused({{"callback", with(callback, {{"auth_token", bad}})}}, "callback.auth_token");
    require_refused({{"callback_url", "https://example.com/hook"}, {"callback_auth_token", bad}}, "callback_auth_token");
  }
  require_refused({{"callback", {{"url", "https://example.com/a\r\nX: y"}}}}, "callback.url");
}

TEST_CASE("model::decode_job_spec checks image references against the OCI grammar", "[model][limits]") {
  CHECK(decoded({{"image", "registry.example.com:5000/team/llm-eval_rocm__v2:1.4-rc.1"}}).image ==
        "registry.example.com:5000/team/llm-eval_rocm__v2:1.4-rc.1");
  require_refused({{"image", std::string(100 * 1024, 'a')}}, "image");
  auto upper = decode_job_spec(with(minimal(), {{"image", "Acme/PyTorch:latest"}}), SpecMode::submit);
  REQUIRE_FALSE(upper.ok());
  CHECK(upper.error().message ==
        "image: repository 'Acme/PyTorch' has upper-case letters, which OCI references (and docker) refuse: use "
        "'acme/pytorch'");
  auto tag = decode_job_spec(with(minimal(), {{"image", "rocm/pytorch:x!"}}), SpecMode::submit);
  REQUIRE_FALSE(tag.ok());
  CHECK(tag.error().message ==
        "image: tag 'x!' is not a valid tag: letters, digits, '_', '.', '-', at most 128, not starting with '.' or '-'");
  CHECK(tag.error().details == Json{{"field", "image"}, {"part", "tag"}});
}
