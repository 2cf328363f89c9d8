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

TEST_CASE("cli::Trace::load reads fault lines beside job lines, sorted by time", "[cli]") {
  std::string path = write_trace("faults", std::string(R"({"at_s": 9, "job": )") + k_job + "}\n" +
                                               R"({"at_s": 4, "fault": {"effect": "exit_code", "value": 3, "target": {"pool": "p"}}})" + "\n");
  auto trace = jgrid::cli::Trace::load(path);
  REQUIRE(trace);
  REQUIRE(trace->size() == 2);
  const auto& entries = trace->entries();
  CHECK(entries[0].at_s == 4);
  REQUIRE(entries[0].fault);
  auto rule = trace->fault(entries[0]);
  REQUIRE(rule);
  CHECK(rule->effect == "exit_code");
  CHECK(rule->pool == "p");
  CHECK(rule->value == 3);
  CHECK_FALSE(entries[1].fault);
  auto job = trace->job(entries[1]);  // read again from the file, by its offset
  REQUIRE(job);
  CHECK(job->image == "rocm/pytorch:latest");
  CHECK(entries[1].line == 1);
}

TEST_CASE("cli::Trace::load names a bad fault line and its field", "[cli]") {
  auto bad_effect = jgrid::cli::Trace::load(write_trace("bad-effect", R"({"at_s": 1, "fault": {"effect": "boom"}})" "\n"));
  REQUIRE_FALSE(bad_effect);
  CHECK(bad_effect.error().code == "INVALID_TRACE");
  CHECK_THAT(bad_effect.error().message, Catch::Contains("bad-effect.jsonl:1: fault.effect: expected one of"));

  auto both = jgrid::cli::Trace::load(
      write_trace("both", std::string(R"({"at_s": 1, "fault": {"effect": "oom"}, "job": )") + k_job + "}\n"));
  REQUIRE_FALSE(both);
  CHECK_THAT(both.error().message, Catch::Contains("both.jsonl:1: expected either \"job\" or \"fault\""));

  auto not_object = jgrid::cli::Trace::load(write_trace("not-object", R"({"at_s": 1, "fault": "node_lost"})" "\n"));
  REQUIRE_FALSE(not_object);
  CHECK_THAT(not_object.error().message, Catch::Contains("fault: expected a fault rule object"));
}
