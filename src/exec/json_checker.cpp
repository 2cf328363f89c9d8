#include "exec/json_checker.hpp"

#include <cmath>
#include <limits>
#include <sstream>

namespace jgrid::exec {
namespace {

constexpr std::size_t k_max_shown_chars = 40;

// What a wrong value looked like, short enough for a one-line message.
std::string describe(const Json& value) {
  if (value.is_object()) return "an object";
  if (value.is_array()) return "an array";
  std::string text = value.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (text.size() > k_max_shown_chars) text = text.substr(0, k_max_shown_chars) + "…";
  return text;
}

std::string bound_text(double min, bool exclusive) {
  std::ostringstream out;
  out << (exclusive ? " > " : " >= ") << min;
  return out.str();
}

bool is_integral(const Json& value) {
  if (value.is_number_integer()) return true;
  if (!value.is_number_float()) return false;
  double number = value.get<double>();
  return std::isfinite(number) && std::floor(number) == number;
}

}  // namespace

std::string member_path(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

std::string index_path(const std::string& parent, std::size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

JsonChecker::JsonChecker(std::string code, std::string prefix)
    : m_code(std::move(code)), m_prefix(std::move(prefix)) {}

void JsonChecker::fail(const std::string& path, const std::string& expected, const Json* got) {
  if (m_error) return;
  std::string message = m_prefix + path + ": expected " + expected;
  if (got) message += ", got " + describe(*got);
  m_error = make_error(m_code, message, Json{{"field", path}});
}

const Json* JsonChecker::member(const Json& object, const std::string& parent, const char* key, bool required,
                                const std::string& expected) {
  auto it = object.is_object() ? object.find(key) : object.end();
  if (it != object.end() && !it->is_null()) return &*it;
  if (required) fail(member_path(parent, key), expected + " (required)");
  return nullptr;
}

std::string JsonChecker::text(const Json& object, const std::string& parent, const char* key,
                              std::optional<std::string> fallback) {
  const Json* value = member(object, parent, key, !fallback, "a string");
  if (!value) return fallback.value_or("");
  if (value->is_string()) return value->get<std::string>();
  fail(member_path(parent, key), "a string", value);
  return fallback.value_or("");
}

// The expected text is only built for a message: a simulated run reads its
// behaviour with these at every start, and building it cost more than the read.
double JsonChecker::number(const Json& object, const std::string& parent, const char* key,
                           std::optional<double> fallback, double min, bool min_exclusive) {
  auto expected = [&] { return "a number" + bound_text(min, min_exclusive); };
  const Json* value = member(object, parent, key, false, "");
  if (!value) {
    if (!fallback) fail(member_path(parent, key), expected() + " (required)");
    return fallback.value_or(min);
  }
  double number = value->is_number() ? value->get<double>() : NAN;
  bool fits = std::isfinite(number) && (min_exclusive ? number > min : number >= min);
  if (fits) return number;
  fail(member_path(parent, key), expected(), value);
  return fallback.value_or(min);
}

long long JsonChecker::integer(const Json& object, const std::string& parent, const char* key,
                               std::optional<long long> fallback, long long min, long long max) {
  auto expected = [&] {
    std::string text = "an integer >= " + std::to_string(min);
    if (max < std::numeric_limits<int>::max()) text += " and <= " + std::to_string(max);
    return text;
  };
  const Json* value = member(object, parent, key, false, "");
  if (!value) {
    if (!fallback) fail(member_path(parent, key), expected() + " (required)");
    return fallback.value_or(min);
  }
  double number = is_integral(*value) ? value->get<double>() : NAN;
  if (number >= static_cast<double>(min) && number <= static_cast<double>(max)) return value->get<long long>();
  fail(member_path(parent, key), expected(), value);
  return fallback.value_or(min);
}

bool JsonChecker::boolean(const Json& object, const std::string& parent, const char* key, bool fallback) {
  const Json* value = member(object, parent, key, false, "a boolean");
  if (!value) return fallback;
  if (value->is_boolean()) return value->get<bool>();
  fail(member_path(parent, key), "true or false", value);
  return fallback;
}

std::map<std::string, std::string> JsonChecker::string_map(const Json& object, const std::string& parent,
                                                           const char* key) {
  std::map<std::string, std::string> out;
  const Json* value = this->object(object, parent, key);
  if (!value) return out;
  std::string path = member_path(parent, key);
  for (const auto& [name, item] : value->items()) {
    if (item.is_string()) out[name] = item.get<std::string>();
    else fail(member_path(path, name), "a string", &item);
  }
  return out;
}

std::optional<std::vector<std::string>> JsonChecker::strings(const Json& object, const std::string& parent,
                                                             const char* key) {
  const Json* value = array(object, parent, key);
  if (!value) return std::nullopt;
  std::vector<std::string> out;
  std::string path = member_path(parent, key);
  for (std::size_t i = 0; i < value->size(); ++i) {
    const Json& item = (*value)[i];
    if (item.is_string()) out.push_back(item.get<std::string>());
    else fail(index_path(path, i), "a string", &item);
  }
  return out;
}

const Json* JsonChecker::object(const Json& object, const std::string& parent, const char* key, bool required) {
  const Json* value = member(object, parent, key, required, "an object");
  if (!value || value->is_object()) return value;
  fail(member_path(parent, key), "an object", value);
  return nullptr;
}

const Json* JsonChecker::array(const Json& object, const std::string& parent, const char* key, bool required) {
  const Json* value = member(object, parent, key, required, "an array");
  if (!value || value->is_array()) return value;
  fail(member_path(parent, key), "an array", value);
  return nullptr;
}

}  // namespace jgrid::exec
