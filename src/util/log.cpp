#include "jgrid/util/log.hpp"

#include <atomic>
#include <cstdio>
#include <mutex>

#include "jgrid/util/clock.hpp"
#include "jgrid/util/time.hpp"

namespace jgrid::util {
namespace {

std::atomic<int> g_level{static_cast<int>(LogLevel::info)};
std::atomic<bool> g_json{false};
std::mutex g_write_mutex;
constexpr const char* k_level_names[] = {"debug", "info", "warn", "error"};
constexpr const char* k_level_labels[] = {"DEBUG", "INFO", "WARN", "ERROR"};

// Log lines must never throw, whatever bytes a caller passes in.
std::string safe_dump(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string text_line(LogLevel level, std::string_view component, std::string_view message,
                      const nlohmann::json& fields) {
  std::string line = format_time(wall_now_ms()) + " " + k_level_labels[static_cast<int>(level)] + " " +
                     std::string(component) + ": " + std::string(message);
  for (auto& [key, value] : fields.items())
    line += " " + key + "=" + (value.is_string() ? value.get<std::string>() : safe_dump(value));
  return line;
}

}  // namespace

std::optional<LogLevel> parse_log_level(std::string_view text) {
  for (int i = 0; i < 4; ++i)
    if (text == k_level_names[i]) return static_cast<LogLevel>(i);
  return std::nullopt;
}

void configure_log(LogLevel level, bool json_format) {
  g_level = static_cast<int>(level);
  g_json = json_format;
}

void log(LogLevel level, std::string_view component, std::string_view message, const nlohmann::json& fields) {
  if (static_cast<int>(level) < g_level) return;
  std::string line;
  if (g_json) {
    nlohmann::json record = fields.is_object() ? fields : nlohmann::json::object();
    record["ts"] = format_time(wall_now_ms());
    record["level"] = k_level_names[static_cast<int>(level)];
    record["component"] = component;
    record["msg"] = message;
    line = safe_dump(record);
  } else {
    line = text_line(level, component, message, fields);
  }
  std::lock_guard lock(g_write_mutex);
  std::fprintf(stderr, "%s\n", line.c_str());
}

}  // namespace jgrid::util
