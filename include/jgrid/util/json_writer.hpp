#pragma once
// JsonWriter: appends one JSON value to a string as it is described, without
// building a tree first. For the hot paths that encode the same shape many
// times a second (a job's stored document at every step of its life); a
// tree (nlohmann::json) stays the tool everywhere else.
//
// Output reads back as nlohmann::json::dump() with ensure_ascii off and
// invalid UTF-8 replaced would: strings are written as UTF-8 with `"`, `\`
// and control characters escaped as dump() does, each byte of invalid UTF-8
// becomes U+FFFD (dump() writes one for a truncated sequence); doubles are written
// in their shortest round-trip form with a ".0" when integral; non-finite
// doubles are written as null. The caller keeps keys and values balanced:
// begin_object()/end_object() pair up and a key() precedes each member.
//
// Not thread-safe (one writer per string).
#include <cstdint>
#include <string>
#include <string_view>

namespace jgrid::util {

class JsonWriter {
 public:
  explicit JsonWriter(std::string& out) : m_out(out) {}

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view name);

  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
  JsonWriter& value(std::int64_t number);
  JsonWriter& value(int number) { return value(static_cast<std::int64_t>(number)); }
  JsonWriter& value(double number);
  JsonWriter& value(bool flag);
  JsonWriter& null();
  // An already encoded JSON value, written as is.
  JsonWriter& raw(std::string_view json);

 private:
  void separate();  // a comma before every element but the first of its container

  std::string& m_out;
  bool m_first = true;  // no element yet in the innermost open container
};

// Appends `text` as a JSON string literal (quotes included), as JsonWriter does.
void append_json_string(std::string& out, std::string_view text);

}  // namespace jgrid::util
