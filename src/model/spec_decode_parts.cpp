#include "model/spec_decode_parts.hpp"

#include "jgrid/util/strings.hpp"
#include "model/decode_helpers.hpp"

namespace jgrid::model {
namespace {

using namespace decode;

#define JGRID_READ(var, expr) \
  auto var = (expr);          \
  if (!var.ok()) return var.error()

const std::vector<std::string> k_levels = {"low", "balanced", "high"};

// The range of each number among the constraints (docs/api.md §1.4).
NumberBounds constraint_bounds(std::string_view key) {
  if (key == "max_price_per_hour") return {0, false, k_max_price_per_hour, "USD"};
  return {0, false, k_max_size_gb, "1 PiB"};
}

Status check_constraint_number(const Json& object, const char* key, const std::string& field) {
  JGRID_READ(number, opt_bounded(object, key, field, constraint_bounds(key)));
  return Ok{};
}

Status check_region_preference(const Json& constraints, const std::string& field) {
  const Json* value = member(constraints, "region_preference");
  if (!value || value->is_string()) return Ok{};
  auto list = opt_strings(constraints, "region_preference", field);
  if (!list.ok()) return invalid(field, "expected a string or an array of strings");
  return Ok{};
}

// The constraints members the hosted API also accepts at the top level of a
// request (docs/api.md, "Constraints"); a member given both ways: the one in
// `constraints` wins.
const char* const k_constraint_aliases[] = {
    "max_price_per_hour", "gpu_type",      "gpu_class",        "preferred_gpu_family", "avoid_gpu_families",
    "region_preference",  "region_mode",   "latency_priority", "cost_priority",        "min_vram_gb",
    "model_size_gb",      "disk_gb"};

// Validates the known constraint members and lower-cases the enumerations;
// `prefix` is how error fields name them ("constraints", or "" at the top level).
Status check_constraints(Json& constraints, const std::string& prefix) {
  if (constraints.empty()) return Ok{};  // most requests: every trace line is checked twice
  auto field = [&](const char* key) { return prefix.empty() ? std::string(key) : path(prefix, key); };
  for (const char* key : {"gpu_type", "gpu_class", "preferred_gpu_family"}) {
    JGRID_READ(text, opt_string(constraints, key, field(key)));
  }
  for (const char* key : {"max_price_per_hour", "min_vram_gb", "model_size_gb", "disk_gb"})
    if (auto status = check_constraint_number(constraints, key, field(key)); !status.ok()) return status;
  JGRID_READ(avoid, opt_strings(constraints, "avoid_gpu_families", field("avoid_gpu_families")));
  if (auto status = check_region_preference(constraints, field("region_preference")); !status.ok()) return status;
  JGRID_READ(mode, opt_enum(constraints, "region_mode", field("region_mode"), {"prefer", "strict"}));
  if (*mode) constraints["region_mode"] = **mode;
  for (const char* key : {"latency_priority", "cost_priority"}) {
    JGRID_READ(level, opt_enum(constraints, key, field(key), k_levels));
    if (*level) constraints[key] = **level;
  }
  return Ok{};
}

// The member inside constraints wins over a top-level one; either ends up in constraints.
const Json& hint_source(const Json& body, const JobSpec& spec, const char* key, std::string& field) {
  if (!member(spec.constraints, key) && member(body, key)) {
    field = key;
    return body;
  }
  field = path("constraints", key);
  return spec.constraints;
}

Status read_string_hint(const Json& body, JobSpec& spec, const char* key, std::string& out) {
  std::string field;
  const Json& source = hint_source(body, spec, key, field);
  JGRID_READ(text, opt_string(source, key, field));
  if (!*text) return Ok{};
  out = util::trim(**text);
  spec.constraints[key] = out;
  return Ok{};
}

Status read_number_hint(const Json& body, JobSpec& spec, const char* key, const char* alias,
                        std::optional<double>& out) {
  std::string field;
  // The alias only stands in for a member given neither in constraints nor under its own name.
  const char* used = (!member(spec.constraints, key) && !member(body, key) && alias && member(body, alias)) ? alias : key;
  const Json& source = hint_source(body, spec, used, field);
  JGRID_READ(number, opt_bounded(source, used, field, constraint_bounds(key)));
  if (!*number) return Ok{};
  out = **number;
  spec.constraints[key] = **number;
  return Ok{};
}

Result<std::vector<std::string>> read_id_list(const Json& value, const std::string& field) {
  if (!value.is_array()) return invalid(field, "expected an array of input ids or {\"input_id\": ...} objects");
  if (value.size() > k_max_list_items)
    return invalid(field, "expected at most " + std::to_string(k_max_list_items) + " inputs, got " +
                              std::to_string(value.size()));
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < value.size(); ++i) {
    std::string item_field = field + "[" + std::to_string(i) + "]";
    const Json& item = value[i];
    const Json* id = item.is_object() ? (member(item, "input_id") ? member(item, "input_id") : member(item, "id"))
                                      : &item;
    if (!id || !id->is_string() || id->get<std::string>().empty() || util::has_control_char(id->get<std::string>()))
      return invalid(item_field, "expected an input id (\"inp_...\") or {\"input_id\": \"inp_...\"}");
    ids.push_back(id->get<std::string>());
  }
  return ids;
}

bool is_http_url(const std::string& url) {
  std::string lower = util::to_lower(url);
  bool scheme = lower.rfind("http://", 0) == 0 || lower.rfind("https://", 0) == 0;
  bool clean = url.find_first_of(" \t") == std::string::npos && !util::has_control_char(url);
  return scheme && clean && url.size() > lower.find("//") + 2;
}

// A value the callback sender puts in a header (the token goes into
// `Authorization: Bearer <token>`): a CR or LF would end the header and start
// another, so no control character at all, tab included.
Status check_header_value(const std::string& value, const std::string& field, std::size_t max_bytes) {
  if (value.size() > max_bytes) return invalid(field, "expected at most " + std::to_string(max_bytes) + " bytes");
  if (util::has_control_char(value))
    return invalid(field, "must not contain control characters (CR, LF, tab or other C0 codes, DEL): it is sent as an "
                          "HTTP header");
  return Ok{};
}

// The callback object, or {} when the client sent none; `callback` may also be a bare URL.
Result<Json> callback_object(const Json& body) {
  const Json* callback = member(body, "callback");
  if (!callback) return Json::object();
  if (callback->is_string()) return Json{{"url", *callback}};
  if (!callback->is_object()) return invalid("callback", "expected an object {url, auth_token, metadata}");
  return *callback;
}

}  // namespace

Status read_constraints(const Json& body, JobSpec& spec, SpecMode) {
  const Json* constraints = member(body, "constraints");
  if (constraints && !constraints->is_object())
    return invalid("constraints", std::string("expected an object, got ") + constraints->type_name());
  spec.constraints = Json::object();
  if (constraints)
    for (const auto& [key, value] : constraints->items())
      if (!value.is_null()) spec.constraints[key] = value;
  if (auto status = check_constraints(spec.constraints, "constraints"); !status.ok()) return status;
  Json top_level = Json::object();
  for (const char* key : k_constraint_aliases)
    if (const Json* value = member(body, key); value && !value->is_null() && !member(spec.constraints, key))
      top_level[key] = *value;
  if (auto status = check_constraints(top_level, ""); !status.ok()) return status;
  for (auto& [key, value] : top_level.items()) spec.constraints[key] = std::move(value);
  if (spec.constraints.empty()) return Ok{};
  if (spec.constraints.dump(-1, ' ', false, Json::error_handler_t::replace).size() > k_max_constraints_bytes)
    return invalid("constraints", "expected at most " + std::to_string(k_max_constraints_bytes) +
                                      " bytes when serialized (top-level aliases included)");
  return Ok{};
}

Status read_routing_hints(const Json& body, JobSpec& spec, SpecMode) {
  if (auto status = read_string_hint(body, spec, "gpu_type", spec.gpu_type); !status.ok()) return status;
  if (auto status = read_string_hint(body, spec, "gpu_class", spec.gpu_class); !status.ok()) return status;
  if (auto status = read_number_hint(body, spec, "min_vram_gb", nullptr, spec.min_vram_gb); !status.ok())
    return status;
  if (auto status = read_number_hint(body, spec, "model_size_gb", "model_size", spec.model_size_gb); !status.ok())
    return status;
  return read_number_hint(body, spec, "disk_gb", nullptr, spec.disk_gb);
}

Status read_priorities(const Json& body, JobSpec& spec, SpecMode) {
  const char* mode_key = member(body, "optimize_for") ? "optimize_for" : "routing_mode";
  JGRID_READ(mode, opt_enum(body, mode_key, mode_key, {"balanced", "cost", "speed"}));
  if (*mode) spec.optimize_for = **mode;
  JGRID_READ(priority, opt_enum(body, "priority", "priority", k_levels));
  if (*priority) spec.priority = **priority;
  for (const char* key : {"latency_priority", "cost_priority"}) {
    std::string field;
    const Json& source = hint_source(body, spec, key, field);
    JGRID_READ(level, opt_enum(source, key, field, k_levels));
    if (!*level) continue;
    (std::string_view(key) == "latency_priority" ? spec.latency_priority : spec.cost_priority) = **level;
    spec.constraints[key] = **level;
  }
  return Ok{};
}

Status read_input_files(const Json& body, JobSpec& spec, SpecMode) {
  if (const Json* inputs = member(body, "input_files")) {
    JGRID_READ(ids, read_id_list(*inputs, "input_files"));
    spec.input_files = std::move(ids.value());
  }
  if (const Json* scripts = member(body, "script_files")) {
    JGRID_READ(ids, read_id_list(*scripts, "script_files"));
    spec.script_files = std::move(ids.value());
  }
  JGRID_READ(legacy, opt_string(body, "script_file", "script_file"));
  if (*legacy && !(*legacy)->empty()) spec.script_files.push_back(**legacy);
  return Ok{};
}

Status read_artifacts(const Json& body, JobSpec& spec, SpecMode) {
  JGRID_READ(paths, opt_strings(body, "expected_artifacts", "expected_artifacts"));
  if (!*paths) return Ok{};
  if ((*paths)->size() > k_max_list_items)
    return invalid("expected_artifacts", "expected at most " + std::to_string(k_max_list_items) + " paths, got " +
                                             std::to_string((*paths)->size()));
  for (std::size_t i = 0; i < (*paths)->size(); ++i) {
    if ((**paths)[i].size() > k_max_path_bytes)
      return invalid("expected_artifacts[" + std::to_string(i) + "]",
                     "expected a path of at most " + std::to_string(k_max_path_bytes) + " bytes");
    auto normal = normalise_artifact_path((**paths)[i]);
    if (!normal)
      return invalid("expected_artifacts[" + std::to_string(i) + "]",
                     "expected an absolute path under " + std::string(k_artifacts_root) + " without \"..\", got \"" +
                         (**paths)[i] + "\"");
    spec.expected_artifacts.push_back(*normal);
  }
  return Ok{};
}

Status read_callback(const Json& body, JobSpec& spec, SpecMode) {
  JGRID_READ(object, callback_object(body));
  CallbackSpec callback;
  JGRID_READ(nested_url, opt_string(*object, "url", "callback.url"));
  JGRID_READ(callback_url, opt_string(body, "callback_url", "callback_url"));
  JGRID_READ(webhook_url, opt_string(body, "webhook_url", "webhook_url"));
  std::string field = *nested_url ? "callback.url" : *callback_url ? "callback_url" : "webhook_url";
  auto url = *nested_url ? *nested_url : *callback_url ? *callback_url : *webhook_url;
  JGRID_READ(nested_token, opt_string(*object, "auth_token", "callback.auth_token"));
  JGRID_READ(token, opt_string(body, "callback_auth_token", "callback_auth_token"));
  const Json* metadata = member(*object, "metadata") ? member(*object, "metadata") : member(body, "callback_metadata");
  std::string metadata_field = member(*object, "metadata") ? "callback.metadata" : "callback_metadata";
  if (metadata && !metadata->is_object()) return invalid(metadata_field, "expected an object");
  if (metadata && metadata->dump(-1, ' ', false, Json::error_handler_t::replace).size() > k_max_metadata_bytes)
    return invalid(metadata_field, "expected at most " + std::to_string(k_max_metadata_bytes) +
                                       " bytes when serialized");
  if (!url || url->empty()) return Ok{};
  if (url->size() > k_max_url_bytes)
    return invalid(field, "expected a URL of at most " + std::to_string(k_max_url_bytes) + " bytes");
  if (!is_http_url(*url)) return invalid(field, "expected an http:// or https:// URL");
  callback.url = *url;
  callback.auth_token = *nested_token ? **nested_token : token->value_or("");
  std::string token_field = *nested_token ? "callback.auth_token" : "callback_auth_token";
  if (auto valid = check_header_value(callback.auth_token, token_field, k_max_auth_token_bytes); !valid)
    return valid.error();
  if (metadata) callback.metadata = *metadata;
  spec.callback = std::move(callback);
  return Ok{};
}

std::optional<std::string> normalise_artifact_path(const std::string& text) {
  if (text.empty() || text[0] != '/' || util::has_control_char(text)) return std::nullopt;
  std::string out;
  for (const auto& part : util::split(text, '/')) {
    if (part.empty() || part == ".") continue;
    if (part == "..") return std::nullopt;
    out += "/" + part;
  }
  std::string root(k_artifacts_root);
  if (out.size() <= root.size() || out.compare(0, root.size(), root) != 0) return std::nullopt;
  return out;
}

}  // namespace jgrid::model
