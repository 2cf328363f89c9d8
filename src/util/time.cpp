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

}  // namespace

std::string format_time(std::int64_t epoch_ms) {
  std::tm t = utc_parts(epoch_ms);
  int millis = static_cast<int>(((epoch_ms % 1000) + 1000) % 1000);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", t.tm_year + 1900, t.tm_mon + 1,
                t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec, millis);
  return buf;
}

std::optional<std::int64_t> parse_time(std::string_view text) {
  std::tm t{};
  int millis = 0, consumed = 0;
  std::string s(text);
  if (std::sscanf(s.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &t.tm_year, &t.tm_mon, &t.tm_mday, &t.tm_hour,
                  &t.tm_min, &t.tm_sec, &consumed) != 6)
    return std::nullopt;
  std::string_view rest = text.substr(static_cast<std::size_t>(consumed));
  if (!rest.empty() && rest[0] == '.') {
    int digits = 0;
    std::size_t i = 1;
    for (; i < rest.size() && rest[i] >= '0' && rest[i] <= '9'; ++i)
      if (digits++ < 3) millis = millis * 10 + (rest[i] - '0');
    for (; digits < 3; ++digits) millis *= 10;
    rest = rest.substr(i);
  }
  if (rest != "Z" && rest != "+00:00") return std::nullopt;
  t.tm_year -= 1900;
  t.tm_mon -= 1;
  return static_cast<std::int64_t>(timegm(&t)) * 1000 + millis;
}

std::string compact_time(std::int64_t epoch_ms) {
  std::tm t = utc_parts(epoch_ms);
  char buf[20];
  std::snprintf(buf, sizeof buf, "%04d%02d%02d%02d%02d%02d", t.tm_year + 1900, t.tm_mon + 1, t.tm_mday,
                t.tm_hour, t.tm_min, t.tm_sec);
  return buf;
}

}  // namespace jgrid::util
