#pragma once
// Reading ids, query parameters and body fields of a Call, with errors that
// name the parameter.
#include <cstdint>
#include <optional>
#include <string>

#include "api/call.hpp"
#include "jgrid/model/job.hpp"

namespace jgrid::api {

// The workspace of the caller ("local" while auth is off; set by authorize()).
std::string workspace_of(const Call& call);

// The job named by capture 0. Error NOT_FOUND (unknown, or another workspace).
Result<model::Job> find_job(const Context& ctx, const Call& call);

// `limit` clamped to 1..max (default when absent). Error INVALID_REQUEST
// when it is not an integer.
Result<int> limit_param(const Call& call, int fallback, int max);

// A decimal cursor (0 when absent). Error INVALID_REQUEST otherwise.
Result<std::int64_t> sequence_cursor(const Call& call, const std::string& name);

// `tail` (absent or empty: none) clamped to max. Error INVALID_REQUEST when
// it is not a non-negative integer.
Result<std::optional<int>> tail_param(const Call& call, int max);

// `since` as epoch milliseconds (0 when absent). Error INVALID_REQUEST when
// it is not an RFC 3339 time.
Result<std::int64_t> since_param(const Call& call);

// An optional string field of the body. Error INVALID_REQUEST when present
// with another type.
Result<std::string> body_string(const Call& call, const std::string& field, const std::string& fallback = "");

// Bearer token of the Authorization header, or "".
std::string bearer_token(const Call& call);

// A string, or JSON null when empty.
Json string_or_null(const std::string& text);

}  // namespace jgrid::api
