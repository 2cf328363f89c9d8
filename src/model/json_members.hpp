#pragma once
// Members that the model's text encoders (job_encode.cpp, job_api_text.cpp)
// write the same way.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "jgrid/model/job_spec.hpp"
#include "jgrid/util/json_writer.hpp"

namespace jgrid::model::json_members {

inline void strings(util::JsonWriter& w, std::string_view key, const std::vector<std::string>& values) {
  w.key(key).begin_array();
  for (const auto& value : values) w.value(value);
  w.end_array();
}

inline void text_map(util::JsonWriter& w, std::string_view key, const std::map<std::string, std::string>& values) {
  w.key(key).begin_object();
  for (const auto& [name, value] : values) w.key(name).value(value);
  w.end_object();
}

// A free-form tree as dump() writes it, invalid UTF-8 replaced.
inline void tree(util::JsonWriter& w, std::string_view key, const Json& value) {
  w.key(key).raw(value.is_object() && value.empty() ? "{}" : value.dump(-1, ' ', false, Json::error_handler_t::replace));
}

}  // namespace jgrid::model::json_members
