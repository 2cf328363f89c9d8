#include <catch2/catch.hpp>

#include "model/spec_decode_parts.hpp"

using namespace jgrid::model;

TEST_CASE("model::normalise_artifact_path folds // and /./ under the artifacts root", "[model]") {
  CHECK(normalise_artifact_path("/workspace/artifacts/a.json") == "/workspace/artifacts/a.json");
  CHECK(normalise_artifact_path("//workspace/./artifacts//dir/./b.png/") == "/workspace/artifacts/dir/b.png");
}

TEST_CASE("model::normalise_artifact_path refuses escapes and other places", "[model]") {
  for (const char* path : {"", "a.json", "workspace/artifacts/a", "/workspace/artifacts", "/workspace/artifacts/",
                           "/workspace/artifacts/../x", "/workspace/artifacts/a/../../b", "/workspace/inputs/a",
                           "/workspace/artifactsx/a", "/workspace/artifacts/a\nb"}) {
    INFO(path);
    CHECK_FALSE(normalise_artifact_path(path));
  }
}

TEST_CASE("model::read_constraints keeps unknown members and drops nulls", "[model]") {
  JobSpec spec;
  Json body = {{"constraints", {{"custom", {1, 2}}, {"gpu_type", nullptr}, {"region_preference", {"us", "eu"}}}}};
  REQUIRE(read_constraints(body, spec, SpecMode::submit).ok());
  CHECK(spec.constraints == Json{{"custom", {1, 2}}, {"region_preference", {"us", "eu"}}});
}

TEST_CASE("model::read_routing_hints folds top-level hints into constraints", "[model]") {
  JobSpec spec;
  Json body = {{"gpu_class", "workstation"}, {"model_size", 7}};
  REQUIRE(read_routing_hints(body, spec, SpecMode::submit).ok());
  CHECK(spec.constraints == Json{{"gpu_class", "workstation"}, {"model_size_gb", 7.0}});
  CHECK(spec.gpu_class == "workstation");
  CHECK(spec.model_size_gb == 7.0);
}
