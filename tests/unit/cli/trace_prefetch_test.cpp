#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "cli/trace_prefetch.hpp"

namespace {

// Job lines in reverse time order, each naming its image after its time, and
// a fault line every 100th: the entries' order is not the file's.
std::string write_long_trace(int lines) {
  auto path = std::filesystem::temp_directory_path() / "jgrid-trace-prefetch.jsonl";
  std::ofstream out(path);
  for (int i = lines - 1; i >= 0; --i) {
    if (i % 100 == 0)
      out << R"({"at_s": )" << i << R"(, "fault": {"effect": "exit_code", "value": )" << 1 + i % 255 << "}}\n";
    else
      out << R"({"at_s": )" << i << R"(, "job": {"workload_type":"inference","image":"rocm/img:)" << i
          << R"(","command":"true"}})" << "\n";
  }
  return path.string();
}

// Refuses images whose tag ends in 7: a preparation's error is the entry's.
jgrid::Result<jgrid::engine::PreparedSubmit> prepare(jgrid::model::JobSpec spec) {
  if (spec.image.back() == '7') return jgrid::make_error("SCREENING_REJECTED", "refused " + spec.image);
  return jgrid::engine::PreparedSubmit{{std::move(spec)}};
}

}  // namespace

TEST_CASE("cli::TracePrefetch gives every entry decoded and prepared, in the trace's order, past its window", "[cli]") {
  const int lines = 3000;
  auto trace = jgrid::cli::Trace::load(write_long_trace(lines));
  INFO((trace ? std::string() : trace.error().message));
  REQUIRE(trace);
  REQUIRE(trace->size() == static_cast<std::size_t>(lines));
  jgrid::cli::TracePrefetch prefetch(*trace, prepare, 300);  // far fewer than the lines: the reader waits for room
  for (int i = 0; i < lines; ++i) {
    INFO("entry " << i);
    auto decoded = prefetch.next();
    if (i % 100 == 0) {
      REQUIRE(decoded.fault);
      REQUIRE_FALSE(decoded.job);
      REQUIRE(*decoded.fault);
      CHECK((*decoded.fault)->value == 1 + i % 255);
    } else {
      REQUIRE(decoded.job);
      if (i % 10 == 7) {
        REQUIRE_FALSE(*decoded.job);
        CHECK(decoded.job->error().message == "refused rocm/img:" + std::to_string(i));
      } else {
        REQUIRE(*decoded.job);
        CHECK((*decoded.job)->request.spec.image == "rocm/img:" + std::to_string(i));
      }
    }
  }
}

TEST_CASE("cli::TracePrefetch stops its reader when dropped before the end", "[cli]") {
  auto trace = jgrid::cli::Trace::load(write_long_trace(2000));
  REQUIRE(trace);
  jgrid::cli::TracePrefetch prefetch(*trace, prepare, 256);
  auto first = prefetch.next();
  CHECK(first.fault);
  // The destructor returns although the reader waits for room with lines left.
}
