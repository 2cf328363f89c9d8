#include <catch2/catch.hpp>

#include "jgrid/util/time.hpp"

using namespace jgrid::util;

TEST_CASE("util::format_time writes RFC 3339 UTC with milliseconds", "[util]") {
  CHECK(format_time(0) == "1970-01-01T00:00:00.000Z");
  CHECK(format_time(1'790'000'000'123) == "2026-09-21T14:13:20.123Z");
  CHECK(format_time(1'709'210'096'007) == "2024-02-29T12:34:56.007Z");
  CHECK(format_time(-1) == "1969-12-31T23:59:59.999Z");
}

TEST_CASE("util::parse_time reads what format_time writes", "[util]") {
  for (std::int64_t ms : {0LL, 1LL, 999LL, 1'790'000'000'123LL, 1'709'210'096'007LL, 4'102'444'799'999LL})
    CHECK(parse_time(format_time(ms)) == ms);
}

TEST_CASE("util::parse_time accepts no fraction, short fractions and +00:00", "[util]") {
  CHECK(parse_time("2026-09-21T14:13:20Z") == 1'790'000'000'000);
  CHECK(parse_time("2026-09-21T14:13:20.5Z") == 1'790'000'000'500);
  CHECK(parse_time("2026-09-21T14:13:20.123456Z") == 1'790'000'000'123);
  CHECK(parse_time("2026-09-21T14:13:20.123+00:00") == 1'790'000'000'123);
}

TEST_CASE("util::parse_time refuses other texts", "[util]") {
  for (const char* text : {"", "yesterday", "2026-09-21", "2026-09-21T14:13:20", "2026-09-21T14:13:20.123+02:00",
                           "2026-09-21T14:13:20.Z", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z",
                           "2026-09-21T25:00:00Z", " 2026-09-21T14:13:20Z", "2026-09-21T14:13:20Zjunk",
                           "+2026-09-21T14:13:20Z", "2026-9-21T14:13:20Z"}) {
    INFO(text);
    CHECK_FALSE(parse_time(text));
  }
}

TEST_CASE("util::compact_time writes yyyymmddhhmmss", "[util]") {
  CHECK(compact_time(1'790'000'000'999) == "20260921141320");
}
