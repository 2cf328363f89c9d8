#include "jgrid/exec/fleet_document.hpp"

#include <charconv>
#include <cstdlib>
#include <optional>

#include "jgrid/util/strings.hpp"

namespace jgrid::exec {
namespace {

using Json = nlohmann::json;

enum class Kind { integer, number, text };

struct Setting {
  const char* pattern;  // dotted; '*' stands for one pool or image
  Kind kind;
};

// What a sweep may change: the settings that shape capacity, price, speed
// and failures. Everything else (names, GPU models, runtimes) would change
// what the trace asks for, not how the fleet answers it.
constexpr Setting k_settings[] = {
    {"seed", Kind::integer},
    {"pools.*.count", Kind::integer},
    {"pools.*.price_per_gpu_hour", Kind::number},
    {"pools.*.speed", Kind::number},
    {"pools.*.region", Kind::text},
    {"pools.*.gpu.count", Kind::integer},
    {"pools.*.gpu.vram_gb", Kind::number},
    {"pools.*.startup.image_pull_mb_per_s", Kind::number},
    {"pools.*.faults.node_lost_per_hour", Kind::number},
    {"pools.*.faults.ecc_error_per_hour", Kind::number},
    {"pools.*.faults.preempt_per_hour", Kind::number},
    {"pools.*.faults.start_error_rate", Kind::number},
    {"pools.*.faults.image_pull_failure_rate", Kind::number},
    {"pools.*.faults.exit_code_rate", Kind::number},
    {"pools.*.faults.oom_rate", Kind::number},
    {"pools.*.faults.slow_rate", Kind::number},
    {"pools.*.faults.slow_factor", Kind::number},
    {"images.*.size_mb", Kind::number},
};

Error invalid_sweep(const std::string& path, const std::string& problem) {
  return make_error("INVALID_SWEEP", path + ": " + problem, Json{{"path", path}});
}

std::optional<Json> read_integer(const std::string& text) {
  long long value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return Json(value);
}

std::optional<Json> read_number(const std::string& text) {
  if (auto integer = read_integer(text)) return integer;
  if (text.empty() || text.find_first_not_of("0123456789+-.eE") != std::string::npos) return std::nullopt;
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return Json(value);
}

Result<Json> read_value(Kind kind, const std::string& path, const std::string& text) {
  std::optional<Json> value;
  if (kind == Kind::integer) value = read_integer(text);
  if (kind == Kind::number) value = read_number(text);
  if (kind == Kind::text && !text.empty()) value = Json(text);
  if (value) return *value;
  const char* expected = kind == Kind::integer ? "an integer" : kind == Kind::number ? "a number" : "a non-empty text";
  return invalid_sweep(path, std::string("expected ") + expected + ", got \"" + text + "\"");
}

const Setting* find_setting(const std::string& pattern) {
  for (const auto& setting : k_settings)
    if (pattern == setting.pattern) return &setting;
  return nullptr;
}

// The element of a pool or image array named by segments[at…] (a name may
// hold dots, so the longest match wins) or by its index; sets `used` to the
// number of segments it took.
Json* find_element(Json& array, const std::vector<std::string>& segments, std::size_t at, std::size_t& used) {
  std::string name;
  Json* found = nullptr;
  for (std::size_t k = at; k < segments.size(); ++k) {
    name += (k == at ? "" : ".") + segments[k];
    for (auto& item : array)
      if (item.is_object() && (item.value("name", Json()) == name || item.value("ref", Json()) == name)) {
        found = &item;
        used = k - at + 1;
      }
  }
  if (found) return found;
  auto index = read_integer(segments[at]);
  if (!index || index->get<long long>() < 0 || index->get<long long>() >= static_cast<long long>(array.size()))
    return nullptr;
  used = 1;
  return &array[index->get<std::size_t>()];
}

std::string element_names(const Json& array, const char* key) {
  std::string names;
  for (const auto& item : array)
    if (item.is_object() && item.contains(key) && item[key].is_string())
      names += (names.empty() ? "" : ", ") + item[key].get<std::string>();
  return names.empty() ? "none" : names;
}

// Where `segments` lead in one document: the object holding the setting
// (created members included, in `doc`), its key, and the pattern with
// pools and images replaced by '*'. nullopt when the pool or image is not
// in this document.
struct Target {
  Json* parent = nullptr;
  std::string key;
  std::string pattern;
};

std::optional<Target> resolve(Json& doc, const std::vector<std::string>& segments) {
  Target target;
  Json* node = &doc;
  for (std::size_t i = 0; i < segments.size();) {
    if (!node->is_object()) return std::nullopt;
    const std::string& key = segments[i];
    target.pattern += (i == 0 ? "" : ".") + key;
    if (i + 1 == segments.size()) {
      target.parent = node;
      target.key = key;
      return target;
    }
    if ((key == "pools" || key == "images") && i == 0) {
      if (!node->contains(key) || !(*node)[key].is_array()) return std::nullopt;
      std::size_t used = 0;
      Json* element = find_element((*node)[key], segments, i + 1, used);
      if (!element || i + 1 + used >= segments.size()) return std::nullopt;
      target.pattern += ".*";
      node = element;
      i += 1 + used;
      continue;
    }
    if (!node->contains(key) || (*node)[key].is_null()) (*node)[key] = Json::object();
    node = &(*node)[key];
    ++i;
  }
  return std::nullopt;
}

Error not_a_setting(const std::string& path) {
  return invalid_sweep(path, "not a setting a sweep can change; expected one of " + sweepable_settings());
}

// Why no document has what `path` names.
Error not_found(const FleetDocument& document, const std::vector<std::string>& segments, const std::string& path) {
  std::string section = segments[0];
  if ((section == "pools" || section == "images") && segments.size() >= 2) {
    const char* key = section == "pools" ? "name" : "ref";
    std::string names;
    for (const auto& source : document.sources)
      if (source.doc.contains(section) && source.doc[section].is_array()) {
        std::string more = element_names(source.doc[section], key);
        if (more != "none") names += (names.empty() ? "" : ", ") + more;
      }
    if ((", " + names + ",").find(", " + segments[1] + ",") != std::string::npos)
      return not_a_setting(path);
    std::string noun = section == "pools" ? "pool" : "image";
    return invalid_sweep(path, "no " + noun + " " + segments[1] + " in the fleet (" + section + ": " +
                                   (names.empty() ? "none" : names) + ")");
  }
  return not_a_setting(path);
}

}  // namespace

Result<FleetDocument> read_fleet_document(const std::vector<std::string>& paths) {
  FleetDocument document;
  if (paths.size() == 1 && paths[0] == "none") return document;
  if (paths.empty()) {
    document.sources.push_back(FleetSource{"built-in fleet", default_fleet_document(), false});
    return document;
  }
  bool images_only = true;
  for (const auto& path : paths) {
    auto doc = read_fleet_file(path);
    if (!doc.ok()) return doc.error();
    if (doc->is_object() && (doc->contains("pools") || doc->contains("slurm"))) images_only = false;
    if (!doc->is_object()) images_only = false;
    document.sources.push_back(FleetSource{path, std::move(doc.value()), false});
  }
  if (images_only) document.sources.push_back(FleetSource{"built-in fleet", default_fleet_document(), true});
  return document;
}

Status set_fleet_value(FleetDocument& document, const std::string& path, const std::string& text) {
  std::vector<std::string> segments = util::split(path, '.');
  for (const auto& segment : segments)
    if (segment.empty()) return invalid_sweep(path, "expected a dotted path such as pools.<pool>.count");
  if (segments.empty()) return invalid_sweep("(empty)", "expected a dotted path such as pools.<pool>.count");
  for (auto& source : document.sources) {
    Json edited = source.doc;
    auto target = resolve(edited, segments);
    if (!target) continue;
    const Setting* setting = find_setting(target->pattern);
    if (!setting) return not_a_setting(path);
    auto value = read_value(setting->kind, path, text);
    if (!value.ok()) return value.error();
    (*target->parent)[target->key] = std::move(value.value());
    source.doc = std::move(edited);
    return Ok{};
  }
  return not_found(document, segments, path);
}

std::string sweepable_settings() {
  std::string out;
  for (const auto& setting : k_settings) {
    std::string pattern = setting.pattern;
    auto star = pattern.find('*');
    if (star != std::string::npos) pattern.replace(star, 1, pattern.starts_with("pools") ? "<pool>" : "<image>");
    out += (out.empty() ? "" : ", ") + pattern;
  }
  return out;
}

}  // namespace jgrid::exec
