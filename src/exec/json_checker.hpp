#pragma once
// Typed reads of JSON members that keep the first problem found, so a decoder
// of a large document (a fleet file, a `sim` object) reads straight through
// and checks once at the end. A problem reads
// "<prefix><path>: expected <what>, got <value>". A member that is absent or
// null counts as not given. Not thread-safe; one checker per decode.
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "jgrid/util/result.hpp"

namespace jgrid::exec {

using Json = nlohmann::json;

// "a.b" for ("a", "b"); "b" when parent is empty.
std::string member_path(const std::string& parent, const std::string& key);
// "a[2]".
std::string index_path(const std::string& parent, std::size_t index);

class JsonChecker {
 public:
  // `code` is the Error code of every problem; `prefix` starts each message.
  JsonChecker(std::string code, std::string prefix);

  bool ok() const { return !m_error.has_value(); }
  // Precondition: !ok().
  const Error& error() const { return *m_error; }

  // Records "<path>: expected <expected>[, got <got>]" unless a problem is
  // already recorded.
  void fail(const std::string& path, const std::string& expected, const Json* got = nullptr);

  // Each reader returns `fallback` when the member is absent, and records a
  // "(required)" problem when it is absent with no fallback. On a problem it
  // returns the fallback or an empty value. An integer bound of INT_MAX or
  // more is left out of messages.
  std::string text(const Json& object, const std::string& parent, const char* key,
                   std::optional<std::string> fallback);
  double number(const Json& object, const std::string& parent, const char* key, std::optional<double> fallback,
                double min, bool min_exclusive = false);
  long long integer(const Json& object, const std::string& parent, const char* key,
                    std::optional<long long> fallback, long long min, long long max);
  bool boolean(const Json& object, const std::string& parent, const char* key, bool fallback);
  // An object of strings; absent gives an empty map.
  std::map<std::string, std::string> string_map(const Json& object, const std::string& parent, const char* key);
  // An array of strings; absent gives nullopt.
  std::optional<std::vector<std::string>> strings(const Json& object, const std::string& parent, const char* key);
  // The member when it is an object (or array); nullptr when absent, or when
  // it has another type (recorded), or `required` and absent (recorded).
  const Json* object(const Json& object, const std::string& parent, const char* key, bool required = false);
  const Json* array(const Json& object, const std::string& parent, const char* key, bool required = false);

 private:
  const Json* member(const Json& object, const std::string& parent, const char* key, bool required,
                     const std::string& expected);

  std::string m_code;
  std::string m_prefix;
  std::optional<Error> m_error;
};

}  // namespace jgrid::exec
