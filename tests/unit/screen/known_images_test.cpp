#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "jgrid/screen/screen.hpp"
#include "screen/known_images.hpp"
#include "screen/signals.hpp"
#include "screen_fixtures.hpp"

using namespace jgrid::screen;
using namespace jgrid::screen::testing;

namespace {

struct KnownCase {
  std::string_view family, image, expected;  // expected: "cuda" | "rocm" | "neither"
};

// Real references as users write them, kept apart from the table's patterns.
const std::vector<KnownCase> k_cases = {
#include "known_images_cases.inc"
};

const KnownImageFamily& family_named(std::string_view name) {
  for (const auto& family : known_image_families())
    if (family.family == name) return family;
  FAIL("no family " << name);
  throw;
}

jgrid::model::JobSpec rocm_request(std::string_view image) {
  jgrid::model::JobSpec spec = undeclared_request(std::string(image));
  spec.gpu_vendor = "amd";
  spec.runtime = "rocm";
  return spec;
}

}  // namespace

TEST_CASE("known images: a family's CUDA build is blocked under ROCm intent with a fix naming its ROCm build",
          "[screen][known-images]") {
  for (const auto& c : k_cases) {
    if (c.expected != "cuda") continue;
    INFO(c.family << ": " << c.image);
    const KnownImageFamily& family = family_named(c.family);
    Screening screening = jgrid::screen::screen(rocm_request(c.image), {});
    const Check& check = check_of(screening, "image.cuda_name");
    CHECK(check.status == "block");
    if (!family.rocm_image.empty()) {
      CHECK(check.fix.find(std::string(family.rocm_image)) != std::string::npos);
    } else {
      CHECK(check.fix.find("ROCm") != std::string::npos);
    }
  }
}

TEST_CASE("known images: a family's ROCm build passes under ROCm intent", "[screen][known-images]") {
  for (const auto& c : k_cases) {
    if (c.expected == "cuda") continue;
    INFO(c.family << ": " << c.image);
    Screening screening = jgrid::screen::screen(rocm_request(c.image), {});
    CHECK(check_of(screening, "image.cuda_name").status == "pass");
    CHECK_FALSE(screening.blocked());
    CHECK(image_cuda_name(parse_image_ref(c.image)).found.empty());
  }
}

TEST_CASE("known images: without declared intent a CUDA build never goes to AMD, a ROCm build may",
          "[screen][known-images]") {
  for (const auto& c : k_cases) {
    INFO(c.family << ": " << c.image);
    Intent intent = detect_intent(undeclared_request(std::string(c.image)), {});
    if (c.expected == "cuda") {
      CHECK(intent.vendor == "nvidia");
      CHECK(intent.unknown_cuda_heavy);
    } else if (c.expected == "rocm") {
      CHECK(intent.vendor == "amd");
    } else {
      CHECK_FALSE(intent.unknown_cuda_heavy);  // a CPU build is not taken for CUDA
      CHECK(intent.vendor != "amd");           // nor for ROCm: no evidence
    }
    // Even a fleet that lets unknown stacks use any vendor keeps CUDA builds off AMD.
    if (c.expected == "cuda") CHECK(detect_intent(undeclared_request(std::string(c.image)), {}, {true}).vendor == "nvidia");
  }
}

TEST_CASE("known images: every family has sources and cases", "[screen][known-images]") {
  std::map<std::string_view, std::set<std::string_view>> kinds;
  for (const auto& c : k_cases) kinds[c.family].insert(c.expected);
  REQUIRE(known_image_families().size() >= 15);
  for (const auto& family : known_image_families()) {
    INFO(family.family);
    CHECK(family.cuda_source.rfind("https://", 0) == 0);
    CHECK_FALSE(family.cuda_patterns.empty());
    CHECK(kinds[family.family].count("cuda") == 1);
    if (!family.rocm_image.empty()) CHECK(family.rocm_source.rfind("https://", 0) == 0);
  }
  for (const auto& [family, _] : kinds) {
    INFO(family);
    (void)family_named(family);  // every case names a family of the table
  }
}

TEST_CASE("known images: docs/known-images.md lists every family", "[screen][known-images]") {
  std::ifstream in(std::string(JGRID_SOURCE_DIR) + "/docs/known-images.md");
  REQUIRE(in);
  std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const auto& family : known_image_families()) {
    INFO(family.family);
    CHECK(doc.find("| " + std::string(family.family) + " |") != std::string::npos);
  }
}

TEST_CASE("known images: pattern matching normalises references", "[screen][known-images]") {
  auto matches = [](std::string_view pattern, std::string_view ref) {
    return matches_image_pattern(pattern, parse_image_ref(ref));
  };
  CHECK(matches("docker.io/vllm/vllm-openai", "vllm/vllm-openai"));
  CHECK(matches("docker.io/vllm/vllm-openai", "docker.io/vllm/vllm-openai:v0.6.3"));
  CHECK(matches("docker.io/vllm/vllm-openai", "index.docker.io/vllm/vllm-openai@sha256:abc"));
  CHECK(matches("docker.io/library/ubuntu", "ubuntu:22.04"));
  CHECK(matches("docker.io/library/ubuntu", "library/ubuntu"));
  CHECK_FALSE(matches("docker.io/vllm/vllm-openai", "ghcr.io/vllm/vllm-openai"));
  CHECK_FALSE(matches("docker.io/vllm/vllm-openai", "vllm/vllm-openai-rocm"));
  CHECK(matches("docker.io/tensorflow/tensorflow:*gpu*", "tensorflow/tensorflow:2.15.0-GPU"));
  CHECK_FALSE(matches("docker.io/tensorflow/tensorflow:*gpu*", "tensorflow/tensorflow:2.15.0"));
  CHECK_FALSE(matches("docker.io/tensorflow/tensorflow:*gpu*", "tensorflow/tensorflow"));  // latest
  CHECK(matches("docker.io/x/y:latest", "x/y"));
  CHECK(matches("nvcr.io/nvidia/*", "nvcr.io/nvidia/nemo:24.07"));
  CHECK_FALSE(matches("nvcr.io/nvidia/*", "nvcr.io/nim/meta/llama3"));
}

TEST_CASE("known images: an exclusion pattern keeps other builds of a family out", "[screen][known-images]") {
  CHECK(find_known_cuda_image(parse_image_ref("ghcr.io/huggingface/text-generation-inference:3.0.1")) != nullptr);
  CHECK(find_known_cuda_image(parse_image_ref("ghcr.io/huggingface/text-generation-inference:3.3.5-intel-xpu")) ==
        nullptr);
}
