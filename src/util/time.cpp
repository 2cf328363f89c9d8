#include "jgrid/util/time.hpp"

#include <cstdio>
#include <ctime>

namespace jgrid::util {
namespace {

std::tm utc_parts(std::int64_t epoch_ms) {
  std::time_t seconds = static_cast<std::time_t>(epoch_ms >= 0 ? epoch_ms / 1000 : (epoch_ms - 999) / 1000);
  std::tm parts{};
  gmtime_r(&seconds, &parts);
  return parts;
}

int digits(std::string_view text, std::size_t at, std::size_t count) {
  int value = 0;
  for (std::size_t i = at; i < at + count; ++i) value = value * 10 + (text[i] - '0');
  return value;
}

// ".123Z", "Z", ".5+00:00": milliseconds (extra digits dropped), or nullopt.
std::optional<int> parse_fraction(std::string_view rest) {
  int millis = 0;
  if (!rest.empty() && rest[0] == '.') {
    std::size_t i = 1;
    for (; i < rest.size() && rest[i] >= '0' && rest[i] <= '9'; ++i)
      if (i <= 3) millis = millis * 10 + (rest[i] - '0');
    if (i == 1) return std::nullopt;
    for (std::size_t pad = i; pad <= 3; ++pad) millis *= 10;
    rest = rest.substr(i);
  }
  if (rest != "Z" && rest != "+00:00") return std::nullopt;
  return millis;
}

}  // namespace

std::string format_time(std::int64_t epoch_ms) {
  std::tm t = utc_parts(epoch_ms);
  int millis = static_cast<int>(((epoch_ms % 1000) + 1000) % 1000);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", t.tm_year + 1900, t.tm_mon + 1,
                t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec, millis);
  return buf;
}

std::optional<std::int64_t> parse_time(std::string_view text) {
  // Fixed layout "yyyy-mm-ddThh:mm:ss": each field exactly its digits.
  static constexpr std::string_view k_layout = "dddd-dd-ddTdd:dd:dd";
  if (text.size() < k_layout.size()) return std::nullopt;
  for (std::size_t i = 0; i < k_layout.size(); ++i) {
    bool digit = text[i] >= '0' && text[i] <= '9';
    if (k_layout[i] == 'd' ? !digit : text[i] != k_layout[i]) return std::nullopt;
  }
  std::tm t{};
  t.tm_year = digits(text, 0, 4) - 1900;
  t.tm_mon = digits(text, 5, 2) - 1;
  t.tm_mday = digits(text, 8, 2);
  t.tm_hour = digits(text, 11, 2);
  t.tm_min = digits(text, 14, 2);
  t.tm_sec = digits(text, 17, 2);
  auto millis = parse_fraction(text.substr(k_layout.size()));
  if (!millis) return std::nullopt;
  std::tm normal = t;
  std::int64_t seconds = static_cast<std::int64_t>(timegm(&normal));
  // timegm normalises out-of-range fields; a real date survives the round trip.
  if (normal.tm_mday != t.tm_mday || normal.tm_mon != t.tm_mon || normal.tm_hour != t.tm_hour ||
      normal.tm_min != t.tm_min || normal.tm_sec != t.tm_sec)
    return std::nullopt;
  return seconds * 1000 + *millis;
}

std::string compact_time(std::int64_t epoch_ms) {
  std::tm t = utc_parts(epoch_ms);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d%02d%02d%02d%02d%02d", t.tm_year + 1900, t.tm_mon + 1, t.tm_mday,
                t.tm_hour, t.tm_min, t.tm_sec);
  return buf;
}

}  // namespace jgrid::util
