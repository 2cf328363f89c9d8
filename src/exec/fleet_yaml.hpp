#pragma once
// The YAML side of fleet files: a YAML document read into the JSON value the
// fleet parser checks. The only file that includes yaml-cpp.
#include <nlohmann/json.hpp>
#include <string>

#include "jgrid/util/result.hpp"

namespace jgrid::exec {

// Plain scalars become null (~, null, empty), booleans, integers or numbers
// when they read as such, else strings; quoted scalars stay strings. Error
// INVALID_FLEET "<source>: not valid YAML: line L, column C: <problem>"
// (also for bytes that are not UTF-8).
Result<nlohmann::json> yaml_to_json(const std::string& text, const std::string& source);

}  // namespace jgrid::exec
