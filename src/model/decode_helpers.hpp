#pragma once
// Typed readers for request bodies: each names the field it failed on, so
// every decoder error reads "<field>: expected <what>" with details.field.
// A member that is absent or null counts as not sent.
#include <optional>
#include <string>
#include <vector>

#include "jgrid/model/job_spec.hpp"

namespace jgrid::model::decode {

// INVALID_REQUEST "<field>: <problem>" with details {"field": field}.
Error invalid(const std::string& field, const std::string& problem);

// The member `key` of `object`, or nullptr when absent, null or `object` is not an object.
const Json* member(const Json& object, const char* key);

// "a.b" when parent is "a", "b" when parent is empty.
std::string path(const std::string& parent, const std::string& key);

Result<std::optional<std::string>> opt_string(const Json& object, const char* key, const std::string& field);
Result<std::optional<double>> opt_number(const Json& object, const char* key, const std::string& field);
Result<std::optional<bool>> opt_bool(const Json& object, const char* key, const std::string& field);

// The range of a number: min <= n (min < n when min_exclusive) and n <= max;
// `max_note` says what the maximum is in words ("30 days"), or "".
struct NumberBounds {
  double min = 0;
  bool min_exclusive = false;
  double max = 0;
  const char* max_note = "";
};

// A finite number within `bounds`. The message names both bounds and the
// value sent: "timeout_seconds: expected a number > 0 and <= 2592000 (30
// days), got 1e+16".
Result<std::optional<double>> opt_bounded(const Json& object, const char* key, const std::string& field,
                                          const NumberBounds& bounds);

// A number as messages show it: "2592000", "0.5", "1e+16".
std::string number_text(double value);

// A non-negative integer (2.0 counts as 2) no larger than `max`.
Result<std::optional<long long>> opt_count(const Json& object, const char* key, const std::string& field,
                                           long long max);

// One of `allowed`, compared lower-case; returns the lower-case value. An
// empty string counts as not sent.
Result<std::optional<std::string>> opt_enum(const Json& object, const char* key, const std::string& field,
                                            const std::vector<std::string>& allowed);

// An array of strings.
Result<std::optional<std::vector<std::string>>> opt_strings(const Json& object, const char* key,
                                                            const std::string& field);

// An object whose values are all strings, at most `max_keys` keys.
Result<std::optional<std::map<std::string, std::string>>> opt_string_map(const Json& object, const char* key,
                                                                         const std::string& field,
                                                                         std::size_t max_keys);

// "a, b or c" for messages.
std::string join_choices(const std::vector<std::string>& choices);

}  // namespace jgrid::model::decode
