#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "cli/trace.hpp"

namespace {

std::string write_trace(const std::string& name, const std::string& text) {
  auto path = std::filesystem::temp_directory_path() / ("jgrid-trace-" + name + ".jsonl");
  std::ofstream(path) << text;
  return path.string();
}

const char* k_job = R"({"workload_type":"inference","image":"rocm/pytorch:latest","command":"true"})";

}  // namespace

TEST_CASE("cli::load_trace reads fault lines beside job lines, sorted by time", "[cli]") {
  std::string path = write_trace("faults", std::string(R"({"at_s": 9, "job": )") + k_job + "}\n" +
                                               R"({"at_s": 4, "fault": {"effect": "exit_code", "value": 3, "target": {"pool": "p"}}})" + "\n");
  auto trace = jgrid::cli::load_trace(path);
  REQUIRE(trace);
  REQUIRE(trace->size() == 2);
  CHECK((*trace)[0].at_s == 4);
  REQUIRE((*trace)[0].fault);
  CHECK((*trace)[0].fault->effect == "exit_code");
  CHECK((*trace)[0].fault->pool == "p");
  CHECK((*trace)[0].fault->value == 3);
  CHECK_FALSE((*trace)[1].fault);
  CHECK((*trace)[1].spec.image == "rocm/pytorch:latest");
}

TEST_CASE("cli::load_trace names a bad fault line and its field", "[cli]") {
  auto bad_effect = jgrid::cli::load_trace(write_trace("bad-effect", R"({"at_s": 1, "fault": {"effect": "boom"}})" "\n"));
  REQUIRE_FALSE(bad_effect);
  CHECK(bad_effect.error().code == "INVALID_TRACE");
  CHECK_THAT(bad_effect.error().message, Catch::Contains("bad-effect.jsonl:1: fault.effect: expected one of"));

  auto both = jgrid::cli::load_trace(
      write_trace("both", std::string(R"({"at_s": 1, "fault": {"effect": "oom"}, "job": )") + k_job + "}\n"));
  REQUIRE_FALSE(both);
  CHECK_THAT(both.error().message, Catch::Contains("both.jsonl:1: expected either \"job\" or \"fault\""));

  auto not_object = jgrid::cli::load_trace(write_trace("not-object", R"({"at_s": 1, "fault": "node_lost"})" "\n"));
  REQUIRE_FALSE(not_object);
  CHECK_THAT(not_object.error().message, Catch::Contains("fault: expected a fault rule object"));
}
