#pragma once
// Small string helpers with no domain knowledge.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jgrid/util/result.hpp"

namespace jgrid::util {

std::string to_lower(std::string_view text);
std::string trim(std::string_view text);
std::vector<std::string> split(std::string_view text, char separator);

// Splits like a POSIX shell word list (quotes and backslashes), without
// expanding anything. Error INVALID_REQUEST on an unterminated quote.
Result<std::vector<std::string>> split_shell_words(std::string_view text);

// Percent-decoding of one URL component; nullopt on a malformed escape.
std::optional<std::string> percent_decode(std::string_view text);
std::string percent_encode(std::string_view text);

// Parses a base-10 integer that must use all of `text`.
std::optional<long long> parse_int(std::string_view text);

// True when `text` has a byte < 0x20 or 0x7f.
bool has_control_char(std::string_view text);

}  // namespace jgrid::util
