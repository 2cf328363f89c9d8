#include "model/decode_helpers.hpp"

#include <cmath>
#include <cstdio>

#include "jgrid/util/strings.hpp"

namespace jgrid::model::decode {
namespace {

std::string type_name(const Json& value) { return value.type_name(); }

}  // namespace

Error invalid(const std::string& field, const std::string& problem) {
  return make_error("INVALID_REQUEST", field + ": " + problem, Json{{"field", field}});
}

const Json* member(const Json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return nullptr;
  return &*it;
}

std::string path(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

std::string join_choices(const std::vector<std::string>& choices) {
  std::string out;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (i > 0) out += (i + 1 == choices.size()) ? " or " : ", ";
    out += choices[i];
  }
  return out;
}

Result<std::optional<std::string>> opt_string(const Json& object, const char* key, const std::string& field) {
  const Json* value = member(object, key);
  if (!value) return std::optional<std::string>{};
  if (!value->is_string()) return invalid(field, "expected a string, got " + type_name(*value));
  return std::optional<std::string>{value->get<std::string>()};
}

Result<std::optional<double>> opt_number(const Json& object, const char* key, const std::string& field) {
  const Json* value = member(object, key);
  if (!value) return std::optional<double>{};
  if (!value->is_number()) return invalid(field, "expected a number, got " + type_name(*value));
  double number = value->get<double>();
  if (!std::isfinite(number)) return invalid(field, "expected a finite number");
  return std::optional<double>{number};
}

std::string number_text(double value) {
  char text[32];
  if (std::floor(value) == value && std::fabs(value) < 1e15)
    std::snprintf(text, sizeof(text), "%.0f", value);
  else
    std::snprintf(text, sizeof(text), "%.6g", value);
  return text;
}

Result<std::optional<double>> opt_bounded(const Json& object, const char* key, const std::string& field,
                                          const NumberBounds& bounds) {
  auto number = opt_number(object, key, field);
  if (!number.ok() || !number.value()) return number;
  double value = **number;
  bool above_min = bounds.min_exclusive ? value > bounds.min : value >= bounds.min;
  if (above_min && value <= bounds.max) return number;
  std::string note = *bounds.max_note ? std::string(" (") + bounds.max_note + ")" : "";
  return invalid(field, std::string("expected a number ") + (bounds.min_exclusive ? "> " : ">= ") +
                            number_text(bounds.min) + " and <= " + number_text(bounds.max) + note + ", got " +
                            number_text(value));
}

Result<std::optional<bool>> opt_bool(const Json& object, const char* key, const std::string& field) {
  const Json* value = member(object, key);
  if (!value) return std::optional<bool>{};
  if (!value->is_boolean()) return invalid(field, "expected a boolean, got " + type_name(*value));
  return std::optional<bool>{value->get<bool>()};
}

Result<std::optional<long long>> opt_count(const Json& object, const char* key, const std::string& field,
                                           long long max) {
  const Json* value = member(object, key);
  if (!value) return std::optional<long long>{};
  std::string expected = "expected an integer between 0 and " + std::to_string(max);
  if (!value->is_number()) return invalid(field, expected + ", got " + type_name(*value));
  double number = value->get<double>();
  if (value->is_number_float() && (!std::isfinite(number) || std::floor(number) != number))
    return invalid(field, expected);
  if (number < 0 || number > static_cast<double>(max)) return invalid(field, expected);
  return std::optional<long long>{static_cast<long long>(number)};
}

Result<std::optional<std::string>> opt_enum(const Json& object, const char* key, const std::string& field,
                                            const std::vector<std::string>& allowed) {
  auto text = opt_string(object, key, field);
  if (!text.ok() || !text.value()) return text;
  std::string lower = util::to_lower(util::trim(**text));
  if (lower.empty()) return std::optional<std::string>{};  // "" reads as not stated
  for (const auto& choice : allowed)
    if (lower == choice) return std::optional<std::string>{lower};
  return invalid(field, "expected one of " + join_choices(allowed) + ", got \"" + **text + "\"");
}

Result<std::optional<std::vector<std::string>>> opt_strings(const Json& object, const char* key,
                                                            const std::string& field) {
  const Json* value = member(object, key);
  if (!value) return std::optional<std::vector<std::string>>{};
  if (!value->is_array()) return invalid(field, "expected an array of strings, got " + type_name(*value));
  std::vector<std::string> out;
  for (std::size_t i = 0; i < value->size(); ++i) {
    const Json& item = (*value)[i];
    if (!item.is_string())
      return invalid(field + "[" + std::to_string(i) + "]", "expected a string, got " + type_name(item));
    out.push_back(item.get<std::string>());
  }
  return std::optional<std::vector<std::string>>{std::move(out)};
}

Result<std::optional<std::map<std::string, std::string>>> opt_string_map(const Json& object, const char* key,
                                                                         const std::string& field,
                                                                         std::size_t max_keys) {
  using Map = std::map<std::string, std::string>;
  const Json* value = member(object, key);
  if (!value) return std::optional<Map>{};
  if (!value->is_object()) return invalid(field, "expected an object of strings, got " + type_name(*value));
  if (value->size() > max_keys) return invalid(field, "at most " + std::to_string(max_keys) + " keys allowed");
  Map out;
  for (const auto& [name, item] : value->items()) {
    if (!item.is_string()) return invalid(field + "." + name, "expected a string, got " + type_name(item));
    out[name] = item.get<std::string>();
  }
  return std::optional<Map>{std::move(out)};
}

}  // namespace jgrid::model::decode
