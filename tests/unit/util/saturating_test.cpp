#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "jgrid/util/saturating.hpp"

using namespace jgrid::util;

namespace {

constexpr std::int64_t k_max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t k_min = std::numeric_limits<std::int64_t>::min();

}  // namespace

TEST_CASE("util::saturating_add clamps at the int64 extremes", "[util]") {
  CHECK(saturating_add(2, 3) == 5);
  CHECK(saturating_add(-2, 3) == 1);
  CHECK(saturating_add(k_max, 0) == k_max);
  CHECK(saturating_add(k_max, 1) == k_max);
  CHECK(saturating_add(k_max, k_max) == k_max);
  CHECK(saturating_add(k_max - 1, 1) == k_max);
  CHECK(saturating_add(k_min, -1) == k_min);
  CHECK(saturating_add(k_min, k_min) == k_min);
  CHECK(saturating_add(k_min, k_max) == -1);
  CHECK(saturating_add(1'767'225'600'000, k_max / 2) == 1'767'225'600'000 + k_max / 2);
}

TEST_CASE("util::saturating_sub clamps at the int64 extremes", "[util]") {
  CHECK(saturating_sub(5, 3) == 2);
  CHECK(saturating_sub(k_max, -1) == k_max);
  CHECK(saturating_sub(k_min, 1) == k_min);
  CHECK(saturating_sub(0, k_min) == k_max);
  CHECK(saturating_sub(-1, k_min) == k_max);
  CHECK(saturating_sub(k_max, k_max) == 0);
  CHECK(saturating_sub(k_max, 1'767'225'600'000) == k_max - 1'767'225'600'000);
}

TEST_CASE("util::saturating_mul clamps with the sign of the product", "[util]") {
  CHECK(saturating_mul(1000, 1000) == 1'000'000);
  CHECK(saturating_mul(-7, 6) == -42);
  CHECK(saturating_mul(k_max, 2) == k_max);
  CHECK(saturating_mul(k_max, -2) == k_min);
  CHECK(saturating_mul(k_min, -1) == k_max);
  CHECK(saturating_mul(k_min, 2) == k_min);
  CHECK(saturating_mul(k_min, 0) == 0);
}

TEST_CASE("util::saturated_int64 rounds and clamps doubles, NaN to 0", "[util]") {
  CHECK(saturated_int64(1.4) == 1);
  CHECK(saturated_int64(1.5) == 2);
  CHECK(saturated_int64(-1.5) == -2);
  CHECK(saturated_int64(9223372036854775808.0) == k_max);  // 2^63: one past INT64_MAX
  CHECK(saturated_int64(-9223372036854775808.0) == k_min);
  CHECK(saturated_int64(9223372036854774784.0) == 9223372036854774784);  // the largest double below 2^63
  CHECK(saturated_int64(1e308) == k_max);
  CHECK(saturated_int64(-1e308) == k_min);
  CHECK(saturated_int64(std::numeric_limits<double>::infinity()) == k_max);
  CHECK(saturated_int64(-std::numeric_limits<double>::infinity()) == k_min);
  CHECK(saturated_int64(std::nan("")) == 0);
}

TEST_CASE("util::seconds_to_ms_saturated converts, clamping what an int64 cannot hold", "[util]") {
  CHECK(seconds_to_ms_saturated(0) == 0);
  CHECK(seconds_to_ms_saturated(2.5) == 2500);
  CHECK(seconds_to_ms_saturated(0.0004) == 0);
  CHECK(seconds_to_ms_saturated(0.0005) == 1);
  CHECK(seconds_to_ms_saturated(2'592'000) == 2'592'000'000);
  CHECK(seconds_to_ms_saturated(1e16) == k_max);  // 1e19 ms: past INT64_MAX (9.2e18)
  CHECK(seconds_to_ms_saturated(9.2e15) == 9'200'000'000'000'000'000);
  CHECK(seconds_to_ms_saturated(-1e16) == k_min);
  CHECK(seconds_to_ms_saturated(1e308) == k_max);  // × 1000 is infinity
  CHECK(seconds_to_ms_saturated(std::nan("")) == 0);
}
