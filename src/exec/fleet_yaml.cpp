#include "exec/fleet_yaml.hpp"

#include <yaml-cpp/yaml.h>

#include <charconv>
#include <cstdlib>
#include <optional>

namespace jgrid::exec {
namespace {

using Json = nlohmann::json;

std::optional<Json> as_integer(const std::string& text) {
  long long value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return Json(value);
}

std::optional<Json> as_number(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789+-.eE") != std::string::npos) return std::nullopt;
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return Json(value);
}

Json plain_scalar(const std::string& text) {
  if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL") return nullptr;
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  if (auto integer = as_integer(text)) return *integer;
  if (auto number = as_number(text)) return *number;
  return text;
}

Json convert(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return nullptr;
    case YAML::NodeType::Scalar:
      // yaml-cpp tags quoted scalars "!" and plain ones "?".
      return node.Tag() == "!" ? Json(node.Scalar()) : plain_scalar(node.Scalar());
    case YAML::NodeType::Sequence: {
      Json array = Json::array();
      for (const auto& item : node) array.push_back(convert(item));
      return array;
    }
    case YAML::NodeType::Map: {
      Json object = Json::object();
      for (const auto& entry : node) object[entry.first.as<std::string>()] = convert(entry.second);
      return object;
    }
  }
  return nullptr;
}

// Length of the UTF-8 sequence starting at text[i], or 0 when it is not one
// (overlong forms, surrogates and code points past U+10FFFF included).
std::size_t utf8_length(const std::string& text, std::size_t i) {
  auto byte = [&](std::size_t k) { return k < text.size() ? static_cast<unsigned char>(text[k]) : 0u; };
  unsigned lead = byte(i);
  if (lead < 0x80) return 1;
  std::size_t length = lead >= 0xC2 && lead <= 0xDF ? 2 : lead >= 0xE0 && lead <= 0xEF ? 3 : lead >= 0xF0 && lead <= 0xF4 ? 4 : 0;
  if (length == 0) return 0;
  unsigned low = 0x80, high = 0xBF;  // allowed range of the second byte
  if (lead == 0xE0) low = 0xA0;
  if (lead == 0xED) high = 0x9F;
  if (lead == 0xF0) low = 0x90;
  if (lead == 0xF4) high = 0x8F;
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (std::size_t k = 2; k < length; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  return length;
}

// YAML is Unicode text; yaml-cpp passes stray bytes through, so they are
// refused here, where the message can still say where they are.
std::optional<Error> check_utf8(const std::string& text, const std::string& source) {
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < text.size();) {
    std::size_t length = utf8_length(text, i);
    if (length == 0)
      return make_error("INVALID_FLEET", source + ": not valid YAML: line " + std::to_string(line) + ", column " +
                                             std::to_string(column) + ": invalid UTF-8",
                        nlohmann::json{{"file", source}});
    if (text[i] == '\n') {
      ++line;
      column = 0;
    }
    ++column;
    i += length;
  }
  return std::nullopt;
}

}  // namespace

Result<nlohmann::json> yaml_to_json(const std::string& text, const std::string& source) {
  if (auto error = check_utf8(text, source)) return *error;
  try {
    return convert(YAML::Load(text));
  } catch (const YAML::Exception& error) {
    return make_error("INVALID_FLEET", source + ": not valid YAML: line " + std::to_string(error.mark.line + 1) +
                                           ", column " + std::to_string(error.mark.column + 1) + ": " + error.msg,
                      nlohmann::json{{"file", source}});
  }
}

}  // namespace jgrid::exec
