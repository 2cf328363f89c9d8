#include <catch2/catch.hpp>

#include "jgrid/util/log.hpp"

using namespace jgrid::util;

TEST_CASE("util::parse_log_level reads the four names only", "[util]") {
  CHECK(parse_log_level("debug") == LogLevel::debug);
  CHECK(parse_log_level("info") == LogLevel::info);
  CHECK(parse_log_level("warn") == LogLevel::warn);
  CHECK(parse_log_level("error") == LogLevel::error);
  CHECK_FALSE(parse_log_level("INFO"));
  CHECK_FALSE(parse_log_level("warning"));
}

TEST_CASE("util::log never throws on text that is not UTF-8", "[util]") {
  configure_log(LogLevel::error, true);
  CHECK_NOTHROW(log(LogLevel::error, "test", "bad \xff byte", {{"field", "\xfe"}}));
  configure_log(LogLevel::error, false);
  CHECK_NOTHROW(log(LogLevel::error, "test", "bad \xff byte", {{"nested", {{"k", "\xfe"}}}}));
  configure_log(LogLevel::info, false);
}
