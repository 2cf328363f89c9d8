#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace jgrid::util {

// RFC 3339 UTC with milliseconds: "2026-12-02T07:47:44.123Z".
std::string format_time(std::int64_t epoch_ms);

// Parses what format_time writes (and the same without fraction, or with an
// offset of Z). nullopt when `text` is not such a time.
std::optional<std::int64_t> parse_time(std::string_view text);

// "yyyymmddhhmmss" in UTC, for generated names.
std::string compact_time(std::int64_t epoch_ms);

}  // namespace jgrid::util
