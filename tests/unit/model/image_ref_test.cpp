#include "jgrid/model/image_ref.hpp"

#include <catch2/catch.hpp>

using jgrid::model::check_image_ref;
using jgrid::model::split_image_ref;

namespace {

const std::string k_digest = "sha256:" + std::string(64, 'a');

// The part check_image_ref names for `ref`, or "" when it accepts it.
std::string refused_part(const std::string& ref) {
  auto status = check_image_ref(ref, "image");
  if (status.ok()) return "";
  INFO(ref << " -> " << status.error().message);
  CHECK(status.error().code == "INVALID_REQUEST");
  CHECK(status.error().message.rfind("image: ", 0) == 0);
  CHECK(status.error().details.value("field", "") == "image");
  return status.error().details.value("part", "?");
}

}  // namespace

TEST_CASE("model::split_image_ref finds registry, repository, tag and digest as docker does", "[model]") {
  const std::string ref = "127.0.0.1:5000/team/app:1.4@" + k_digest;  // the parts are views into it
  auto full = split_image_ref(ref);
  CHECK(full.registry == "127.0.0.1:5000");
  CHECK(full.repository == "team/app");
  CHECK(full.tag == "1.4");
  CHECK(full.digest == k_digest);
  CHECK(full.has_tag);
  CHECK(full.has_digest);
  auto hub = split_image_ref("rocm/pytorch");
  CHECK(hub.registry.empty());
  CHECK(hub.repository == "rocm/pytorch");
  CHECK_FALSE(hub.has_tag);
  CHECK(split_image_ref("localhost/app").registry == "localhost");
  CHECK(split_image_ref("localhost:5000").repository == "localhost");  // no '/': a Docker Hub name and a tag
  CHECK(split_image_ref("localhost:5000").tag == "5000");
  CHECK(split_image_ref("[::1]:5000/app").registry == "[::1]:5000");
  CHECK(split_image_ref("app:").has_tag);
}

TEST_CASE("model::check_image_ref accepts references of the OCI grammar", "[model]") {
  for (const std::string& ref :
       {std::string("ubuntu"), std::string("ubuntu:22.04"), std::string("rocm/pytorch:latest"),
        std::string("ghcr.io/acme/pytorch-rocm:latest"), std::string("nvidia/cuda:12.4.0-runtime-ubuntu22.04"),
        std::string("nvcr.io/nvidia/pytorch:24.01-py3"), std::string("a__b/c.d/e---f:_Tag.1-x"),
        std::string("localhost:5000/app"), std::string("[::1]:5000/app"), std::string("My-Registry.example.com/app"),
        "ghcr.io/org/app:1.0@" + k_digest, "app@" + k_digest, "app:" + std::string(128, 'T')})
    CHECK(refused_part(ref) == "");
}

TEST_CASE("model::check_image_ref names the part that breaks the grammar", "[model]") {
  CHECK(refused_part(std::string(4097, 'a')) == "reference");
  CHECK(refused_part(std::string(256, 'a')) == "repository");  // the name is at most 255 characters
  CHECK(refused_part(std::string(255, 'a')) == "");
  CHECK(refused_part("Ubuntu") == "repository");
  CHECK(refused_part("rocm/PyTorch:latest") == "repository");
  for (const char* bad : {"a..b", "a___b", "-a", "a-", "a//b", "a/", "/a", "a.", "_a"})
    CHECK(refused_part(bad) == "repository");
  CHECK(refused_part("@" + k_digest) == "repository");
  CHECK(refused_part("bad_host.io/app") == "registry");
  CHECK(refused_part("host-.io/app") == "registry");
  CHECK(refused_part("host.io:port/app") == "registry");
  CHECK(refused_part("a:b/c") == "registry");  // a ':' in the first component makes it a registry
  CHECK(refused_part("host.io:123456/app") == "registry");
  CHECK(refused_part("app:") == "tag");
  CHECK(refused_part("app:.x") == "tag");
  CHECK(refused_part("app:-x") == "tag");
  CHECK(refused_part("app:x!") == "tag");
  CHECK(refused_part("app:" + std::string(129, 'T')) == "tag");
  CHECK(refused_part("app@") == "digest");
  CHECK(refused_part("app@sha256:abc") == "digest");
  CHECK(refused_part("app@sha256:" + std::string(64, 'A')) == "digest");
  CHECK(refused_part("app@sha512:" + std::string(128, 'a')) == "digest");
}

TEST_CASE("model::check_image_ref quotes at most 80 characters of a long part", "[model]") {
  auto status = check_image_ref("app:" + std::string(200, '!'), "image");
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().message.size() < 250);
}
