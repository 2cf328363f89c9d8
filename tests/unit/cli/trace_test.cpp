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

// Past a megabyte the file is checked in parts on threads of their own: the
// lines keep their numbers and order, and the file's first bad line is named.
TEST_CASE("cli::Trace::load of a large trace keeps every line's number and order, and names the first bad line", "[cli]") {
  const int lines = 15000;  // about 1.5 MB
  auto body = [&](int bad_a, int bad_b) {
    std::string text;
    for (int n = 1; n <= lines; ++n) {
      if (n % 1000 == 0) text += "# a comment line\n";
      else if (n == bad_a || n == bad_b) text += R"({"at_s": 1, "job": {"workload_type": "nope"}})" "\n";
      else text += R"({"at_s": )" + std::to_string(n % 7) + R"(, "job": )" + k_job + "}\n";
    }
    return text;
  };
  auto trace = jgrid::cli::Trace::load(write_trace("large", body(0, 0)));
  REQUIRE(trace);
  REQUIRE(trace->size() == static_cast<std::size_t>(lines - lines / 1000));
  std::vector<int> expected;  // by time, file order among equal times
  for (int at = 0; at < 7; ++at)
    for (int n = 1; n <= lines; ++n)
      if (n % 1000 != 0 && n % 7 == at) expected.push_back(n);
  std::vector<int> got;
  for (const auto& entry : trace->entries()) got.push_back(entry.line);
  CHECK(got == expected);
  auto last = trace->job(trace->entries().back());  // read again by offset, from the second part
  REQUIRE(last);
  CHECK(last->image == "rocm/pytorch:latest");

  auto late = jgrid::cli::Trace::load(write_trace("large-late", body(14500, 0)));
  REQUIRE_FALSE(late);
  CHECK_THAT(late.error().message, Catch::Contains("large-late.jsonl:14500: job.workload_type"));
  auto both = jgrid::cli::Trace::load(write_trace("large-both", body(14500, 3)));
  REQUIRE_FALSE(both);
  CHECK_THAT(both.error().message, Catch::Contains("large-both.jsonl:3: job.workload_type"));
}
