#include "cli/follow.hpp"

#include <catch2/catch.hpp>

#include "cli/term.hpp"

using namespace jgrid::cli;

TEST_CASE("cli::exit_code_for gives the job's exit code, 124 on timeout, 0 only when completed", "[cli]") {
  CHECK(exit_code_for("completed", 0, false) == 0);
  CHECK(exit_code_for("failed", 3, false) == 3);
  CHECK(exit_code_for("failed", nullptr, true) == 124);
  CHECK(exit_code_for("failed", 0, false) == 1);
  CHECK(exit_code_for("cancelled", nullptr, false) == 1);
  CHECK(exit_code_for("rejected", nullptr, false) == 1);
}

TEST_CASE("cli::format_duration and format_bytes are short and readable", "[cli]") {
  CHECK(format_duration(42) == "42s");
  CHECK(format_duration(185) == "3m05s");
  CHECK(format_duration(3720) == "1h02m");
  CHECK(format_bytes(512) == "512 B");
  CHECK(format_bytes(3 * 1024 * 1024 + 400 * 1024) == "3.4 MiB");
}
