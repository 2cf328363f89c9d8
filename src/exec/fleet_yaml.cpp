#include "exec/fleet_yaml.hpp"

#include <yaml-cpp/yaml.h>

#include <charconv>
#include <cstdlib>

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

}  // namespace

Result<nlohmann::json> yaml_to_json(const std::string& text, const std::string& source) {
  try {
    return convert(YAML::Load(text));
  } catch (const YAML::Exception& error) {
    return make_error("INVALID_FLEET", source + ": not valid YAML: line " + std::to_string(error.mark.line + 1) +
                                           ", column " + std::to_string(error.mark.column + 1) + ": " + error.msg,
                      nlohmann::json{{"file", source}});
  }
}

}  // namespace jgrid::exec
