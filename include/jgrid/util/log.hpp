#pragma once
// The server's own diagnostic log, on stderr: text ("2026-… INFO engine:
// message key=value") or one JSON object per line. Thread-safe.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace jgrid::util {

enum class LogLevel { debug, info, warn, error };

// Parses "debug|info|warn|error"; nullopt otherwise.
std::optional<LogLevel> parse_log_level(std::string_view text);

void configure_log(LogLevel level, bool json_format);
void log(LogLevel level, std::string_view component, std::string_view message,
         const nlohmann::json& fields = nlohmann::json::object());

}  // namespace jgrid::util
