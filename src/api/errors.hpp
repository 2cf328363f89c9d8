#pragma once
// The one mapping from an internal Error to an HTTP status and JSON body
// {"ok": false, "error": {code, message, details?}} (docs/api.md §1.1).
#include <string>
#include <utility>
#include <vector>

#include "api/call.hpp"

namespace jgrid::api {

struct HttpError {
  int status = 500;
  Json body;
  std::vector<std::pair<std::string, std::string>> headers;  // Retry-After, X-Request-Id
};

// Public codes map to their status. Internal codes (STORE_*, IO_ERROR,
// INTERNAL, anything unknown) become 500 INTERNAL_ERROR with a request id;
// the original is logged, never sent.
HttpError to_http_error(const Error& error);

// Shorthands for handlers.
Error invalid_request(const std::string& message, const std::string& field = "");
Error not_found(const std::string& what, const std::string& id);

}  // namespace jgrid::api
