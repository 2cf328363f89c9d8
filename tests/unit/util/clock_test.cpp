#include <catch2/catch.hpp>

#include <thread>

#include "jgrid/util/clock.hpp"

using namespace jgrid::util;

TEST_CASE("util::make_real_clock starts at wall time and reports its scale", "[util]") {
  auto clock = make_real_clock();
  CHECK(clock->scale() == 1.0);
  CHECK(std::llabs(clock->now_ms() - wall_now_ms()) < 1000);
}

TEST_CASE("util::make_real_clock runs faster by its scale", "[util]") {
  auto clock = make_real_clock(100.0);
  std::int64_t wall_start = wall_now_ms(), start = clock->now_ms();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::int64_t wall_elapsed = wall_now_ms() - wall_start, elapsed = clock->now_ms() - start;
  CHECK(elapsed >= 100 * (wall_elapsed - 2));
  CHECK(clock->scale() == 100.0);
}
