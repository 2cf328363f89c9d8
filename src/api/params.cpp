#include "api/params.hpp"

#include <algorithm>

#include "api/errors.hpp"
#include "jgrid/util/strings.hpp"

namespace jgrid::api {

std::string workspace_of(const Call& call) { return call.workspace; }

Result<model::Job> find_job(const Context& ctx, const Call& call) {
  const std::string& id = call.capture(0);
  auto job = ctx.store.get_job(id);
  if (!job || job->workspace != workspace_of(call)) return not_found("job", id);
  return std::move(*job);
}

Result<int> limit_param(const Call& call, int fallback, int max) {
  auto text = call.param("limit");
  if (!text || text->empty()) return fallback;
  auto value = util::parse_int(*text);
  if (!value) return invalid_request("limit: expected an integer, got '" + *text + "'", "limit");
  return static_cast<int>(std::clamp<long long>(*value, 1, max));
}

Result<std::int64_t> sequence_cursor(const Call& call, const std::string& name) {
  auto text = call.param(name);
  if (!text || text->empty()) return std::int64_t{0};
  auto value = util::parse_int(*text);
  if (!value || *value < 0)
    return invalid_request(name + ": expected a decimal sequence number, got '" + *text + "'", name);
  return static_cast<std::int64_t>(*value);
}

Result<std::string> body_string(const Call& call, const std::string& field, const std::string& fallback) {
  if (!call.body.is_object() || !call.body.contains(field) || call.body[field].is_null()) return fallback;
  if (!call.body[field].is_string()) return invalid_request(field + ": expected a string", field);
  return call.body[field].get<std::string>();
}

std::string bearer_token(const Call& call) {
  const std::string& header = call.authorization;
  if (header.size() < 7 || util::to_lower(header.substr(0, 7)) != "bearer ") return "";
  return util::trim(header.substr(7));
}

Json string_or_null(const std::string& text) { return text.empty() ? Json(nullptr) : Json(text); }

}  // namespace jgrid::api
