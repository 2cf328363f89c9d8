#pragma once
// Arithmetic on int64 times and durations (clock milliseconds) that clamps
// at the int64 limits instead of overflowing. A timer due "never" is due at
// INT64_MAX, not at a wrapped-around time in the past. Pure and thread-safe.
#include <cstdint>
#include <limits>

namespace jgrid::util {

inline constexpr std::int64_t k_int64_max = std::numeric_limits<std::int64_t>::max();
inline constexpr std::int64_t k_int64_min = std::numeric_limits<std::int64_t>::min();

// a + b, a - b and a × b, clamped to [INT64_MIN, INT64_MAX].
std::int64_t saturating_add(std::int64_t a, std::int64_t b);
std::int64_t saturating_sub(std::int64_t a, std::int64_t b);
std::int64_t saturating_mul(std::int64_t a, std::int64_t b);

// `value` rounded to the nearest integer (halves away from zero), clamped
// to [INT64_MIN, INT64_MAX]; NaN gives 0. Never undefined, unlike a cast.
std::int64_t saturated_int64(double value);

// `seconds` × 1000 as saturated_int64 (so ±infinity and 1e300 clamp, NaN is 0).
std::int64_t seconds_to_ms_saturated(double seconds);

}  // namespace jgrid::util
