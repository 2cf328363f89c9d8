#include "jgrid/util/saturating.hpp"

#include <cmath>

namespace jgrid::util {
namespace {

// 2^63: the first double above INT64_MAX (which a double cannot hold).
constexpr double k_two_63 = 9223372036854775808.0;

}  // namespace

std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
  std::int64_t out = 0;
  if (!__builtin_add_overflow(a, b, &out)) return out;
  return b > 0 ? k_int64_max : k_int64_min;
}

std::int64_t saturating_sub(std::int64_t a, std::int64_t b) {
  std::int64_t out = 0;
  if (!__builtin_sub_overflow(a, b, &out)) return out;
  return b < 0 ? k_int64_max : k_int64_min;
}

std::int64_t saturating_mul(std::int64_t a, std::int64_t b) {
  std::int64_t out = 0;
  if (!__builtin_mul_overflow(a, b, &out)) return out;
  return (a < 0) != (b < 0) ? k_int64_min : k_int64_max;
}

std::int64_t saturated_int64(double value) {
  if (std::isnan(value)) return 0;
  double rounded = std::round(value);
  if (rounded >= k_two_63) return k_int64_max;
  if (rounded <= -k_two_63) return k_int64_min;
  return static_cast<std::int64_t>(rounded);
}

std::int64_t seconds_to_ms_saturated(double seconds) { return saturated_int64(seconds * 1000.0); }

}  // namespace jgrid::util
