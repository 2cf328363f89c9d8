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
