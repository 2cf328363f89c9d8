#include <catch2/catch.hpp>
#include <set>

#include "screen_fixtures.hpp"

namespace model = jgrid::model;
using namespace jgrid::screen;
using namespace jgrid::screen::testing;

namespace {

void require_all_pass(const Screening& screening) {
  REQUIRE(screening.checks.size() == rule_ids().size());
  for (const auto& check : screening.checks) {
    INFO(check.rule << ": " << check.message);
    CHECK(check.status == "pass");
  }
}

}  // namespace

TEST_CASE("screen::screen passes the example request on every rule", "[screen]") {
  SECTION("with the catalog's metadata") { require_all_pass(screen(example_request(), rocm_catalog_entry())); }
  SECTION("with no metadata known") { require_all_pass(screen(example_request(), {})); }
}

TEST_CASE("screen::screen blocks nvidia/cuda under AMD intent, naming a ROCm image", "[screen]") {
  model::JobSpec spec = example_request();
  spec.image = "nvidia/cuda:12.4.0-runtime-ubuntu22.04";
  Screening screening = screen(spec, {});
  CHECK(screening.blocked());
  CHECK(screening.blocked_rules() == std::vector<std::string>{"image.cuda_name"});
  const Check& check = check_of(screening, "image.cuda_name");
  CHECK(check.message.find("nvidia/cuda") != std::string::npos);
  CHECK(check.fix.find("rocm/pytorch") != std::string::npos);
  CHECK(screening.fixes() == std::vector<std::string>{check.fix});
}

TEST_CASE("screen::screen blocks a nvidia-smi command under AMD intent", "[screen]") {
  model::JobSpec spec = example_request();
  spec.command = {"nvidia-smi"};
  Screening screening = screen(spec, {});
  CHECK(screening.blocked_rules() == std::vector<std::string>{"command.nvidia_tool"});
}

TEST_CASE("screen::screen routes an undeclared CUDA image to NVIDIA without blocking", "[screen]") {
  Screening screening = screen(undeclared_request("nvcr.io/nvidia/pytorch:24.01-py3"), {});
  CHECK_FALSE(screening.blocked());
  CHECK(check_of(screening, "intent.unknown_cuda_heavy").status == "warn");
  CHECK(screening.intent.unknown_cuda_heavy);
  CHECK(screening.intent.vendor == "nvidia");
}

TEST_CASE("screen::screen reads AMD intent case-insensitively", "[screen]") {
  model::JobSpec spec = undeclared_request("nvidia/cuda:12.4.0-base");
  spec.gpu_vendor = "AMD";
  Screening screening = screen(spec, {});
  CHECK(screening.intent.explicit_rocm);
  CHECK(check_of(screening, "image.cuda_name").status == "block");
}

TEST_CASE("screen::screen yields one check per rule, in rule_ids order", "[screen]") {
  Screening screening = screen(undeclared_request(), {});
  REQUIRE(screening.checks.size() == rule_ids().size());
  for (std::size_t i = 0; i < rule_ids().size(); ++i) CHECK(screening.checks[i].rule == rule_ids()[i]);
  std::set<std::string> unique(rule_ids().begin(), rule_ids().end());
  CHECK(unique.size() == 18);
  for (auto id : {"intent.conflict", "gpu.required", "image.cuda_name", "image.cuda_metadata", "command.nvidia_tool",
                  "command.cuda_wheels", "env.nvidia", "path.nvidia_device", "labels.nvidia", "framework.cuda_only",
                  "image.rocm_on_nvidia", "intent.unknown_cuda_heavy", "intent.no_rocm_evidence"})
    CHECK(unique.count(id) == 1);
}

TEST_CASE("screen::screen is deterministic", "[screen]") {
  model::JobSpec spec = example_request();
  spec.environment = {{"NVIDIA_VISIBLE_DEVICES", "all"}, {"HSA_OVERRIDE_GFX_VERSION", "11.0.0"}};
  CHECK(screening_to_json(screen(spec, {})) == screening_to_json(screen(spec, {})));
}

TEST_CASE("screen::Screening lists blocks, warnings and fixes in rule order", "[screen]") {
  model::JobSpec spec = example_request();
  spec.command = {"nvidia-smi"};
  spec.gpu_count = 0;
  spec.environment = {{"HSA_OVERRIDE_GFX_VERSION", "11.0.0"}};
  Screening screening = screen(spec, {});
  CHECK(screening.blocked_rules() == std::vector<std::string>{"gpu.required", "command.nvidia_tool"});
  REQUIRE(screening.warnings().size() == 1);
  CHECK(screening.warnings()[0].rule == "env.hsa_override");
  auto fixes = screening.fixes();
  REQUIRE(fixes.size() == 3);
  CHECK(fixes[0] == check_of(screening, "gpu.required").fix);
  CHECK(fixes[2] == check_of(screening, "env.hsa_override").fix);
}

TEST_CASE("screen::screening_to_json has the docs/api.md §2.1 shape", "[screen]") {
  model::JobSpec spec = example_request();
  spec.environment = {{"NVIDIA_VISIBLE_DEVICES", "all"}, {"CUDA_VISIBLE_DEVICES", "0"}};
  auto json = screening_to_json(screen(spec, {}));
  CHECK(json["can_submit"] == false);
  CHECK(json["blocked_checks"] == nlohmann::json::array({"env.nvidia"}));
  REQUIRE(json["checks"].size() == rule_ids().size());
  CHECK(json["checks"][0].size() == 5);
  CHECK(json["checks"][0]["rule"] == "intent.conflict");
  REQUIRE(json["warnings"].size() == 1);
  CHECK(json["warnings"][0]["rule"] == "env.cuda_visible_devices");
  CHECK(json["warnings"][0]["status"] == "warn");
  CHECK(json["fixes"].size() == 2);

  auto clean = screening_to_json(screen(example_request(), {}));
  CHECK(clean["can_submit"] == true);
  CHECK(clean["blocked_checks"].empty());
  CHECK(clean["warnings"].empty());
  CHECK(clean["fixes"].empty());
}

TEST_CASE("screen::check_to_json carries all five fields", "[screen]") {
  Check check{"env.nvidia", "block", "environment.NVIDIA_VISIBLE_DEVICES", "found", "use ROCR_VISIBLE_DEVICES"};
  CHECK(check_to_json(check) == nlohmann::json{{"rule", "env.nvidia"},
                                               {"status", "block"},
                                               {"field", "environment.NVIDIA_VISIBLE_DEVICES"},
                                               {"message", "found"},
                                               {"fix", "use ROCR_VISIBLE_DEVICES"}});
}

TEST_CASE("screen::job_screening_json writes the checks and warnings of screening_to_json", "[screen]") {
  model::JobSpec spec = example_request();
  spec.environment = {{"CUDA_VISIBLE_DEVICES", "0"}, {"HSA_OVERRIDE_GFX_VERSION", "11.0.0"}};
  Screening screening = screen(spec, {});
  auto full = screening_to_json(screening);
  auto text = nlohmann::json::parse(job_screening_json(screening));
  CHECK(text == nlohmann::json{{"checks", full["checks"]}, {"warnings", full["warnings"]}});
  CHECK(text["warnings"].size() == 2);
}
