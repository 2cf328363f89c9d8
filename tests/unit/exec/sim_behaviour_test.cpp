#include "exec/sim_behaviour.hpp"

#include <catch2/catch.hpp>

using namespace jgrid;
using namespace jgrid::exec;

TEST_CASE("sim_behaviour::resolve_behaviour layers the job's sim over the image's", "[exec][sim]") {
  Json image{{"duration_s", 20}, {"stdout", {"from image"}}, {"exit_code", 2}};
  Json job{{"exit_code", 0}, {"stderr", {"oops"}}};
  auto behaviour = resolve_behaviour(job, image);
  REQUIRE(behaviour.ok());
  CHECK(behaviour->duration_s == 20);
  CHECK(behaviour->stdout_lines == std::vector<std::string>{"from image"});
  CHECK(behaviour->stderr_lines == std::vector<std::string>{"oops"});
  CHECK(behaviour->exit_code == 0);
}

TEST_CASE("sim_behaviour::resolve_behaviour leaves defaults when neither says", "[exec][sim]") {
  auto behaviour = resolve_behaviour(nullptr, nullptr);
  REQUIRE(behaviour.ok());
  CHECK_FALSE(behaviour->duration_s);
  CHECK_FALSE(behaviour->stdout_lines);
  CHECK_FALSE(behaviour->artifacts);
  CHECK(behaviour->exit_code == 0);
  CHECK(behaviour->stdout_every_s == 1.0);
  CHECK_FALSE(behaviour->fail_start);
}

TEST_CASE("sim_behaviour::resolve_behaviour names a bad field", "[exec][sim]") {
  auto error_of = [](const Json& sim) { return resolve_behaviour(sim, nullptr).error().message; };
  CHECK(error_of(Json{{"duration_s", -1}}) == "sim.duration_s: expected a number >= 0, got -1");
  CHECK(error_of(Json{{"oom", "yes"}}) == "sim.oom: expected true or false, got \"yes\"");
  CHECK(error_of(Json{{"stdout", {"a", 1}}}) == "sim.stdout[1]: expected a string, got 1");
  CHECK(error_of(Json{{"stdout_every_s", 0}}) == "sim.stdout_every_s: expected a number > 0, got 0");
  CHECK(error_of(Json{{"artifacts", {{"/etc/passwd", "x"}}}}) ==
        "sim.artifacts[\"/etc/passwd\"]: expected a file path under /workspace/artifacts/");
  CHECK(error_of(Json::array()) == "sim: expected an object, got an array");
  CHECK(resolve_behaviour(Json{{"exit_code", 1.5}}, nullptr).error().code == "START_FAILED");
}

TEST_CASE("sim_behaviour::read_sim keeps non-string artifact contents as JSON text", "[exec][sim]") {
  JsonChecker checker("X", "");
  SimBehaviour behaviour;
  read_sim(checker, Json{{"artifacts", {{"/workspace/artifacts/r.json", {{"ok", true}}}}}}, "sim", behaviour);
  REQUIRE(checker.ok());
  CHECK(behaviour.artifacts->at("/workspace/artifacts/r.json") == "{\"ok\":true}");
}

TEST_CASE("sim_behaviour::artifact_relative_path keeps paths inside the artifacts dir", "[exec][sim]") {
  CHECK(artifact_relative_path("/workspace/artifacts/result.json") == "result.json");
  CHECK(artifact_relative_path("/workspace/artifacts/plots/./a.png") == "plots/a.png");
  CHECK(artifact_relative_path("plots/a.png") == "plots/a.png");
  CHECK_FALSE(artifact_relative_path("/workspace/artifacts/../inputs/x"));
  CHECK_FALSE(artifact_relative_path("a/../../x"));
  CHECK_FALSE(artifact_relative_path("/workspace/artifacts/"));
  CHECK_FALSE(artifact_relative_path("/workspace/artifacts/dir/"));
  CHECK_FALSE(artifact_relative_path("/tmp/x"));
  CHECK_FALSE(artifact_relative_path(""));
}
