// api::BodyCache: entries live exactly as long as their store version.
#include <catch2/catch.hpp>

#include "api/body_cache.hpp"

TEST_CASE("api::BodyCache returns a body only for the version it was built at", "[api][cache]") {
  jgrid::api::BodyCache cache;
  cache.put(3, "job_1|plain", "{\"a\":1}");
  CHECK(cache.find(3, "job_1|plain") == "{\"a\":1}");
  CHECK(!cache.find(3, "job_1|envelope"));
  CHECK(!cache.find(4, "job_1|plain"));
  cache.put(4, "job_2|plain", "{}");
  CHECK(!cache.find(3, "job_1|plain"));
  CHECK(!cache.find(4, "job_1|plain"));  // dropped with its version
  cache.put(3, "job_1|plain", "{\"stale\":true}");  // built from an older read: ignored
  CHECK(!cache.find(4, "job_1|plain"));
  CHECK(cache.find(4, "job_2|plain") == "{}");
}
