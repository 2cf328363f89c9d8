#include "jgrid/util/json_writer.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "jgrid/util/utf8.hpp"

namespace jgrid::util {
namespace {

void append_escape(std::string& out, unsigned char c) {
  switch (c) {
    case '"': out += "\\\""; return;
    case '\\': out += "\\\\"; return;
    case '\b': out += "\\b"; return;
    case '\f': out += "\\f"; return;
    case '\n': out += "\\n"; return;
    case '\r': out += "\\r"; return;
    case '\t': out += "\\t"; return;
    default: break;
  }
  static constexpr char k_hex[] = "0123456789abcdef";
  out += "\\u00";
  out += k_hex[c >> 4];
  out += k_hex[c & 0xF];
}

// True when none of the 8 bytes at `p` needs attention (escaping or UTF-8
// checking): no control character, '"', '\\' or byte >= 0x80. The classic
// "has a byte less than n" bit trick, exact for n <= 0x80.
bool plain_word(const char* p) {
  constexpr std::uint64_t k_ones = 0x0101010101010101ULL, k_highs = 0x8080808080808080ULL;
  std::uint64_t v;
  std::memcpy(&v, p, sizeof v);
  const std::uint64_t quote = v ^ (k_ones * '"'), backslash = v ^ (k_ones * '\\');
  const std::uint64_t control = (v - k_ones * 0x20) & ~v;
  const std::uint64_t special = ((quote - k_ones) & ~quote) | ((backslash - k_ones) & ~backslash);
  return ((control | special | v) & k_highs) == 0;
}

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
  out += '"';
  std::size_t run = 0;  // start of the pending stretch that needs no escaping
  for (std::size_t i = 0; i < text.size();) {
    while (i + 8 <= text.size() && plain_word(text.data() + i)) i += 8;  // most text is plain ASCII
    if (i >= text.size()) break;
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
      ++i;
      continue;
    }
    out.append(text, run, i - run);
    if (c < 0x80) {
      append_escape(out, c);
      ++i;
    } else if (std::size_t n = utf8_sequence_length(text, i); n > 0) {
      out.append(text, i, n);
      i += n;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
    run = i;
  }
  out.append(text, run, text.size() - run);
  out += '"';
}

void JsonWriter::separate() {
  if (!m_first) m_out += ',';
  m_first = false;
}

JsonWriter& JsonWriter::begin_object() {
  separate();
  m_out += '{';
  m_first = true;
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  m_out += '}';
  m_first = false;
  return *this;
}

JsonWriter& JsonWriter::begin_array() {
  separate();
  m_out += '[';
  m_first = true;
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  m_out += ']';
  m_first = false;
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
  separate();
  append_json_string(m_out, name);
  m_out += ':';
  m_first = true;  // the value that follows takes no comma
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view text) {
  separate();
  append_json_string(m_out, text);
  return *this;
}

JsonWriter& JsonWriter::value(std::int64_t number) {
  separate();
  char buffer[24];
  auto end = std::to_chars(buffer, buffer + sizeof buffer, number).ptr;
  m_out.append(buffer, end);
  return *this;
}

JsonWriter& JsonWriter::value(double number) {
  if (!std::isfinite(number)) return null();
  separate();
  char buffer[32];
  auto end = std::to_chars(buffer, buffer + sizeof buffer, number).ptr;
  std::string_view text(buffer, static_cast<std::size_t>(end - buffer));
  m_out += text;
  if (text.find_first_of(".eE") == std::string_view::npos) m_out += ".0";
  return *this;
}

JsonWriter& JsonWriter::value(bool flag) {
  separate();
  m_out += flag ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::null() {
  separate();
  m_out += "null";
  return *this;
}

JsonWriter& JsonWriter::raw(std::string_view json) {
  separate();
  m_out += json;
  return *this;
}

}  // namespace jgrid::util
