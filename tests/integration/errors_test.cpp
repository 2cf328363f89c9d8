// api::to_http_error: the one mapping from internal errors to HTTP.
#include <catch2/catch.hpp>

#include "api/errors.hpp"

using jgrid::make_error;
using jgrid::api::HttpError;
using jgrid::api::Json;
using jgrid::api::to_http_error;

namespace {

std::string header(const HttpError& error, const std::string& name) {
  for (const auto& [key, value] : error.headers)
    if (key == name) return value;
  return "";
}

}  // namespace

TEST_CASE("api::to_http_error maps public codes to their status", "[api][errors]") {
  const std::pair<const char*, int> table[] = {
      {"INVALID_REQUEST", 400},     {"UNAUTHORIZED", 401},        {"FORBIDDEN", 403},
      {"NOT_FOUND", 404},           {"JOB_INPUT_NOT_FOUND", 404}, {"CONFLICT", 409},
      {"ARTIFACT_NOT_READY", 409},  {"JOB_INPUT_NOT_READY", 409}, {"PAYLOAD_TOO_LARGE", 413},
      {"SCREENING_REJECTED", 422},  {"RATE_LIMITED", 429},        {"CAPACITY_UNAVAILABLE", 503},
      {"MAINTENANCE_ACTIVE", 503},
  };
  for (const auto& [code, status] : table) {
    auto http = to_http_error(make_error(code, "what failed on what", Json{{"field", "x"}}));
    INFO(code);
    CHECK(http.status == status);
    CHECK(http.body == Json{{"ok", false},
                            {"code", code},
                            {"message", "what failed on what"},
                            {"error", {{"code", code}, {"message", "what failed on what"}, {"details", {{"field", "x"}}}}}});
  }
}

TEST_CASE("api::to_http_error omits empty details", "[api][errors]") {
  auto http = to_http_error(make_error("NOT_FOUND", "job not found: job_1"));
  CHECK(!http.body["error"].contains("details"));
}

TEST_CASE("api::to_http_error hides internal errors behind a request id", "[api][errors]") {
  for (const char* code : {"STORE_WRITE_FAILED", "STORE_OPEN_FAILED", "IO_ERROR", "INTERNAL", "SOMETHING_NEW"}) {
    auto http = to_http_error(make_error(code, "disk full at /var/lib/secret/jgrid.db"));
    INFO(code);
    CHECK(http.status == 500);
    CHECK(http.body["error"]["code"] == "INTERNAL_ERROR");
    std::string message = http.body["error"]["message"];
    CHECK(message.find("secret") == std::string::npos);
    std::string request_id = http.body["error"]["details"]["request_id"];
    CHECK(request_id.rfind("req_", 0) == 0);
    CHECK(message.find(request_id) != std::string::npos);
    CHECK(header(http, "X-Request-Id") == request_id);
  }
}

TEST_CASE("api::to_http_error sets Retry-After and Allow where they apply", "[api][errors]") {
  auto capacity = to_http_error(make_error("CAPACITY_UNAVAILABLE", "no AMD node", Json{{"retry_after_seconds", 90}}));
  CHECK(header(capacity, "Retry-After") == "90");
  CHECK(header(to_http_error(make_error("CAPACITY_UNAVAILABLE", "no AMD node")), "Retry-After") == "30");
  CHECK(header(to_http_error(make_error("MAINTENANCE_ACTIVE", "draining")), "Retry-After") == "5");
  auto method = to_http_error(make_error("METHOD_NOT_ALLOWED", "no", Json{{"allowed_methods", {"GET", "POST"}}}));
  CHECK(method.status == 405);
  CHECK(method.body["error"]["code"] == "INVALID_REQUEST");
  CHECK(header(method, "Allow") == "GET, POST");
}
