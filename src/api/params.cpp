#include "api/params.hpp"

#include <algorithm>

#include "api/errors.hpp"
#include "jgrid/util/strings.hpp"
#include "jgrid/util/time.hpp"

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

Result<std::optional<int>> tail_param(const Call& call, int max) {
  auto text = call.param("tail");
  if (!text || text->empty()) return std::optional<int>();
  auto value = util::parse_int(*text);
  if (!value || *value < 0) return invalid_request("tail: expected a non-negative integer, got '" + *text + "'", "tail");
  return std::optional<int>(static_cast<int>(std::min<long long>(*value, max)));
}

Result<std::int64_t> since_param(const Call& call) {
  auto text = call.param("since");
  if (!text || text->empty()) return std::int64_t{0};
  auto ms = util::parse_time(*text);
  if (!ms) return invalid_request("since: expected an RFC 3339 time like 2026-12-02T07:47:44.123Z, got '" + *text + "'",
                                  "since");
  return *ms;
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
