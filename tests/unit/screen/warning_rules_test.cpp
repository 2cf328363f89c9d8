#include <catch2/catch.hpp>

#include "rule_cases.hpp"

namespace model = jgrid::model;
using namespace jgrid::screen;
using namespace jgrid::screen::testing;

namespace {

using Spec = model::JobSpec;
using Image = ImageMetadata;

const std::vector<RuleCase> k_warning_cases = {
    // env.cuda_visible_devices
    {"not set", "env.cuda_visible_devices", "pass", Base::rocm, {}},
    {"set under AMD intent", "env.cuda_visible_devices", "warn", Base::rocm, with_env("CUDA_VISIBLE_DEVICES", "0"),
     "environment.CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES"},
    {"set without intent", "env.cuda_visible_devices", "pass", Base::undeclared, with_env("CUDA_VISIBLE_DEVICES", "0")},

    // command.torch_cuda
    {"no torch.cuda", "command.torch_cuda", "pass", Base::rocm, {}},
    {"torch.cuda.is_available", "command.torch_cuda", "warn", Base::rocm,
     [](Spec& s, Image&) {
       s.command = {"python", "-c", "import torch; print(torch.cuda.is_available())"};
     },
     "command", "torch.version.hip"},
    {"import torch.cuda", "command.torch_cuda", "warn", Base::rocm,
     [](Spec& s, Image&) {
       s.command = {"python", "-c", "import torch.cuda"};
     }},
    {"torchcuda is another word", "command.torch_cuda", "pass", Base::rocm,
     [](Spec& s, Image&) {
       s.command = {"python", "torchcuda.py"};
     }},
    {"torch.cuda without intent", "command.torch_cuda", "pass", Base::undeclared,
     [](Spec& s, Image&) {
       s.command = {"python", "-c", "import torch.cuda"};
     }},

    // framework.unknown
    {"recognised ROCm hint", "framework.unknown", "pass", Base::rocm, {}},
    {"no hint", "framework.unknown", "pass", Base::undeclared, {}},
    {"recognised CUDA hint", "framework.unknown", "pass", Base::nvidia,
     [](Spec& s, Image&) { s.framework = "tensorrt"; }},
    {"unrecognised hint", "framework.unknown", "warn", Base::rocm, [](Spec& s, Image&) { s.framework = "jax-xla"; },
     "framework", "pytorch-rocm"},

    // image.unknown_stack
    {"ROCm by name", "image.unknown_stack", "pass", Base::rocm, {}},
    {"ROCm by catalog label", "image.unknown_stack", "pass", Base::rocm,
     [](Spec& s, Image& i) {
       s.image = "ghcr.io/acme/app:latest";
       i = rocm_catalog_entry();
     }},
    {"ambiguous image under AMD intent", "image.unknown_stack", "warn", Base::rocm,
     [](Spec& s, Image&) { s.image = "ghcr.io/acme/app:latest"; }, "image",
     "verify the image contains the ROCm user-space stack"},
    {"ambiguous image without intent", "image.unknown_stack", "pass", Base::undeclared, {}},
    {"CUDA image is a known stack (blocked elsewhere)", "image.unknown_stack", "pass", Base::rocm,
     [](Spec& s, Image&) { s.image = "nvidia/cuda:12.4.0-base"; }},

    // env.hsa_override
    {"not set", "env.hsa_override", "pass", Base::rocm, {}},
    {"set", "env.hsa_override", "warn", Base::rocm, with_env("HSA_OVERRIDE_GFX_VERSION", "11.0.0"),
     "environment.HSA_OVERRIDE_GFX_VERSION", "drop it"},
    {"set without intent", "env.hsa_override", "warn", Base::undeclared,
     with_env("HSA_OVERRIDE_GFX_VERSION", "10.3.0")},
};

const std::vector<std::string> k_warning_rules = {"env.cuda_visible_devices", "command.torch_cuda", "framework.unknown",
                                                  "image.unknown_stack", "env.hsa_override"};

}  // namespace

TEST_CASE("screen warning rules report the expected status for each case", "[screen]") {
  for (const auto& c : k_warning_cases) run_case(c);
}

TEST_CASE("screen warning rules: each has a pass and a warn case and never blocks", "[screen]") {
  require_coverage(k_warning_cases, k_warning_rules, "warn");
  for (const auto& c : k_warning_cases) {
    model::JobSpec spec = base_request(c.base);
    ImageMetadata image;
    if (c.edit) c.edit(spec, image);
    CHECK(check_of(screen(spec, image), c.rule).status != "block");
  }
}

TEST_CASE("screen: CUDA_VISIBLE_DEVICES and torch.cuda only warn", "[screen]") {
  model::JobSpec spec = example_request();
  spec.environment["CUDA_VISIBLE_DEVICES"] = "0,1";
  spec.command = {"python", "-c", "import torch; assert torch.cuda.is_available()"};
  Screening screening = screen(spec, rocm_catalog_entry());
  CHECK_FALSE(screening.blocked());
  auto warnings = screening.warnings();
  REQUIRE(warnings.size() == 2);
  CHECK(warnings[0].rule == "env.cuda_visible_devices");
  CHECK(warnings[1].rule == "command.torch_cuda");
}
