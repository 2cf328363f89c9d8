// Every well-known CUDA image of the table, as the engine routes it: never
// to AMD without declared intent, blocked with ROCm intent; the families'
// ROCm builds routed to AMD.
#include <string_view>

#include "engine_fixture.hpp"

using namespace jgrid;
using jgrid::test::EngineFixture;
using jgrid::test::make_node;
using jgrid::test::make_spec;

namespace {

struct KnownImageCase {
  std::string_view family, image, expected;
};

const std::vector<KnownImageCase> k_known_image_cases = {
#include "../screen/known_images_cases.inc"
};

}  // namespace

TEST_CASE("engine: well-known CUDA images never go to AMD, their ROCm builds do", "[engine][known-images]") {
  EngineFixture mixed({make_node("mi300x-1", "amd", 8), make_node("h100-1", "nvidia", 8)});
  EngineFixture amd_only({make_node("mi300x-1", "amd", 8)});
  for (const auto& c : k_known_image_cases) {
    INFO(c.family << ": " << c.image);
    model::JobSpec undeclared = make_spec("");
    undeclared.image = std::string(c.image);
    model::JobSpec rocm = make_spec("amd");
    rocm.image = std::string(c.image);
    rocm.runtime = "rocm";
    auto routed = mixed.engine->estimate(undeclared, model::Framing::plain);
    if (c.expected == "cuda") {
      CHECK(routed["routing"]["selected_node_id"] == "node_h100-1");
      CHECK(amd_only.engine->estimate(undeclared, model::Framing::plain)["can_submit"] == false);
      auto blocked = mixed.engine->estimate(rocm, model::Framing::plain);
      CHECK(blocked["unavailable_code"] == "SCREENING_REJECTED");
    } else if (c.expected == "rocm") {
      CHECK(routed["routing"]["selected_node_id"] == "node_mi300x-1");
      CHECK(mixed.engine->estimate(rocm, model::Framing::plain)["can_submit"] == true);
    } else {
      CHECK(mixed.engine->estimate(rocm, model::Framing::plain)["can_submit"] == true);
    }
  }
}
