#include "screen/facts.hpp"

#include <catch2/catch.hpp>

#include "screen_fixtures.hpp"

namespace model = jgrid::model;
using namespace jgrid::screen;
using namespace jgrid::screen::testing;

TEST_CASE("screen::gather_facts reads image, command and environment once", "[screen]") {
  model::JobSpec spec = example_request();
  spec.image = "nvidia/cuda:12.4.0-base";
  spec.command = {"bash", "-c", "nvidia-smi; pip install torch --index-url https://x/whl/cu124"};
  spec.environment = {{"NVIDIA_VISIBLE_DEVICES", "all"}, {"LD_LIBRARY_PATH", "/usr/local/cuda/lib64"}};
  Facts facts = gather_facts(spec, {});
  CHECK(facts.ref.repository == "nvidia/cuda");
  CHECK(facts.command == "bash -c nvidia-smi; pip install torch --index-url https://x/whl/cu124");
  CHECK(facts.cuda_name);
  CHECK_FALSE(facts.rocm_name);
  CHECK(facts.nvidia_tool.found == "nvidia-smi");
  CHECK(facts.cuda_wheels);
  CHECK(facts.nvidia_path.field == "environment.LD_LIBRARY_PATH");
  CHECK(facts.env_nvidia);
  CHECK(facts.declarations.size() == 3);
  CHECK(facts.intent.explicit_rocm);
}

TEST_CASE("screen::cuda_heavy_evidence prefers the image, then the command", "[screen]") {
  model::JobSpec spec = undeclared_request("nvcr.io/nvidia/pytorch:24.01-py3");
  spec.command = {"nvidia-smi"};
  Facts facts = gather_facts(spec, {});
  REQUIRE(cuda_heavy_evidence(facts));
  CHECK(cuda_heavy_evidence(facts)->field == "image");

  spec.image = "ghcr.io/acme/app:latest";
  Facts command_only = gather_facts(spec, {});
  REQUIRE(cuda_heavy_evidence(command_only));
  CHECK(cuda_heavy_evidence(command_only)->field == "command");

  CHECK_FALSE(cuda_heavy_evidence(gather_facts(example_request(), {})));
}
