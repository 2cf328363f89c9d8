#include "screen/tokens.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using namespace jgrid::screen;

namespace {

std::vector<std::string> image_tokens(std::string_view text) {
  std::vector<std::string> out;
  any_image_token(text, [&](std::string_view token) {
    out.emplace_back(token);
    return false;
  });
  return out;
}

std::vector<std::string> command_words(std::string_view text) {
  std::vector<std::string> out;
  any_command_word(text, [&](std::string_view word, std::string_view next) {
    out.push_back(std::string(word) + ">" + std::string(next));
    return false;
  });
  return out;
}

}  // namespace

TEST_CASE("screen::iequals and friends ignore ASCII case only", "[screen]") {
  CHECK(iequals("AMD", "amd"));
  CHECK_FALSE(iequals("amd", "amd "));
  CHECK(istarts_with("Nvidia.com/gpu", "nvidia.com/"));
  CHECK_FALSE(istarts_with("nv", "nvidia"));
  CHECK(iends_with("nvidia-cublas-CU12", "-cu12"));
  CHECK(ifind("pip install TORCH", "torch") == 12);
  CHECK(ifind("abc", "d") == std::string_view::npos);
  CHECK(all_digits("121"));
  CHECK_FALSE(all_digits(""));
  CHECK_FALSE(all_digits("12a"));
}

TEST_CASE("screen::parse_image_ref splits registry, repository, tag and digest", "[screen]") {
  auto ref = parse_image_ref("ghcr.io/acme/pytorch-rocm:latest");
  CHECK(ref.registry == "ghcr.io");
  CHECK(ref.repository == "acme/pytorch-rocm");
  CHECK(ref.tag == "latest");
  CHECK_FALSE(ref.docker_hub());

  ref = parse_image_ref("nvidia/cuda:12.4.0-runtime-ubuntu22.04");
  CHECK(ref.registry.empty());
  CHECK(ref.repository == "nvidia/cuda");
  CHECK(ref.tag == "12.4.0-runtime-ubuntu22.04");
  CHECK(ref.docker_hub());

  ref = parse_image_ref("localhost:5000/team/app@sha256:abcd");
  CHECK(ref.registry == "localhost:5000");
  CHECK(ref.repository == "team/app");
  CHECK(ref.tag.empty());
  CHECK(ref.digest == "sha256:abcd");

  ref = parse_image_ref("docker.io/library/ubuntu:22.04");
  CHECK(ref.repository == "ubuntu");
  CHECK(ref.docker_hub());
}

TEST_CASE("screen::any_image_token splits on / : . _ @ -", "[screen]") {
  CHECK(image_tokens("ghcr.io/acme/pytorch-rocm:rocm6.2_py3") ==
        std::vector<std::string>{"ghcr", "io", "acme", "pytorch", "rocm", "rocm6", "2", "py3"});
  CHECK(image_tokens("--a//b").size() == 2);
  CHECK(any_image_token("a-cuda-b", [](std::string_view t) { return t == "cuda"; }));
}

TEST_CASE("screen::any_command_word keeps tool names and flags whole", "[screen]") {
  CHECK(command_words("bash -c 'nvidia-smi && x=/usr/bin/nvcc'") ==
        std::vector<std::string>{"bash>-c", "-c>nvidia-smi", "nvidia-smi>x", "x>usr", "usr>bin", "bin>nvcc", "nvcc>"});
  CHECK(command_words("--runtime=nvidia") == std::vector<std::string>{"--runtime>nvidia", "nvidia>"});
  CHECK(command_words("print(torch.cuda.is_available())") ==
        std::vector<std::string>{"print>torch.cuda.is_available", "torch.cuda.is_available>"});
  CHECK(command_words("").empty());
}
