#include "api/errors.hpp"

#include <algorithm>
#include <string_view>

#include "jgrid/util/clock.hpp"
#include "jgrid/util/ids.hpp"
#include "jgrid/util/log.hpp"

namespace jgrid::api {
namespace {

struct CodeMapping {
  std::string_view code;
  int status;
  std::string_view public_code;
};

// METHOD_NOT_ALLOWED and RANGE_NOT_SATISFIABLE are transport conditions that
// clients see as INVALID_REQUEST (docs/api.md names no code for them).
constexpr CodeMapping k_codes[] = {
    {"INVALID_REQUEST", 400, "INVALID_REQUEST"},
    {"UNAUTHORIZED", 401, "UNAUTHORIZED"},
    {"FORBIDDEN", 403, "FORBIDDEN"},
    {"NOT_FOUND", 404, "NOT_FOUND"},
    {"JOB_INPUT_NOT_FOUND", 404, "JOB_INPUT_NOT_FOUND"},
    {"METHOD_NOT_ALLOWED", 405, "INVALID_REQUEST"},
    {"CONFLICT", 409, "CONFLICT"},
    {"ARTIFACT_NOT_READY", 409, "ARTIFACT_NOT_READY"},
    {"JOB_INPUT_NOT_READY", 409, "JOB_INPUT_NOT_READY"},
    {"REQUEST_TIMEOUT", 408, "REQUEST_TIMEOUT"},
    {"PAYLOAD_TOO_LARGE", 413, "PAYLOAD_TOO_LARGE"},
    {"URI_TOO_LONG", 414, "URI_TOO_LONG"},
    {"UNSUPPORTED_MEDIA_TYPE", 415, "UNSUPPORTED_MEDIA_TYPE"},
    {"RANGE_NOT_SATISFIABLE", 416, "INVALID_REQUEST"},
    {"SCREENING_REJECTED", 422, "SCREENING_REJECTED"},
    {"RATE_LIMITED", 429, "RATE_LIMITED"},
    {"HEADERS_TOO_LARGE", 431, "HEADERS_TOO_LARGE"},
    {"INSUFFICIENT_STORAGE", 507, "INSUFFICIENT_STORAGE"},
    {"CAPACITY_UNAVAILABLE", 503, "CAPACITY_UNAVAILABLE"},
    {"MAINTENANCE_ACTIVE", 503, "MAINTENANCE_ACTIVE"},
    {"NOT_READY", 503, "NOT_READY"},
};

const CodeMapping* find_mapping(const std::string& code) {
  for (const auto& mapping : k_codes)
    if (mapping.code == code) return &mapping;
  return nullptr;
}

Json error_body(std::string_view code, const std::string& message, const Json& details) {
  Json error = {{"code", code}, {"message", message}};
  if (details.is_object() && !details.empty()) error["details"] = details;
  // Top-level copies of code and message for clients that read only those.
  return Json{{"ok", false}, {"code", code}, {"message", message}, {"error", std::move(error)}};
}

std::string retry_after(const Json& details, int fallback) {
  if (details.is_object() && details.contains("retry_after_seconds") && details["retry_after_seconds"].is_number())
    return std::to_string(std::max<long long>(1, details["retry_after_seconds"].get<long long>()));
  return std::to_string(fallback);
}

std::string allow_header(const Json& details) {
  std::string out;
  for (const auto& method : details.value("allowed_methods", Json::array()))
    if (method.is_string()) out += (out.empty() ? "" : ", ") + method.get<std::string>();
  return out;
}

HttpError internal_error(const Error& error) {
  std::string request_id = util::new_id("req", util::wall_now_ms());
  util::log(util::LogLevel::error, "api", "request failed: " + error.message,
            {{"request_id", request_id}, {"code", error.code}});
  HttpError out;
  out.status = 500;
  out.body = error_body("INTERNAL_ERROR", "internal error; see the server log for request " + request_id,
                        Json{{"request_id", request_id}});
  out.headers.emplace_back("X-Request-Id", request_id);
  return out;
}

}  // namespace

HttpError to_http_error(const Error& error) {
  const CodeMapping* mapping = find_mapping(error.code);
  if (!mapping) return internal_error(error);
  HttpError out;
  out.status = mapping->status;
  out.body = error_body(mapping->public_code, error.message, error.details);
  if (error.code == "CAPACITY_UNAVAILABLE" || error.code == "RATE_LIMITED")
    out.headers.emplace_back("Retry-After", retry_after(error.details, 30));
  if (error.code == "MAINTENANCE_ACTIVE") out.headers.emplace_back("Retry-After", "5");
  if (error.code == "UNAUTHORIZED") out.headers.emplace_back("WWW-Authenticate", "Bearer realm=\"jgrid-local\"");
  if (error.code == "METHOD_NOT_ALLOWED") out.headers.emplace_back("Allow", allow_header(error.details));
  return out;
}

Error invalid_request(const std::string& message, const std::string& field) {
  return make_error("INVALID_REQUEST", message, field.empty() ? Json::object() : Json{{"field", field}});
}

Error not_found(const std::string& what, const std::string& id) {
  return make_error("NOT_FOUND", what + " not found: " + id);
}

}  // namespace jgrid::api
