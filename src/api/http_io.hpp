#pragma once
// Reading request bodies and writing replies with cpp-httplib (used by the
// adapter only).
#include <httplib.h>

#include <cstdint>

#include "api/call.hpp"
#include "api/json_body.hpp"
#include "api/route_table.hpp"

namespace jgrid::api {

struct BodyLimits {
  std::int64_t max_bytes;
  int max_depth;  // nesting of arrays and objects
};

// Reads and parses the body a route expects. `reader` is null when the HTTP
// library already read it into req.body. Sets `consumed` once the body was
// read. Errors: PAYLOAD_TOO_LARGE (over max_bytes), INVALID_REQUEST (empty
// where required, nested deeper than max_depth, not JSON, not an object).
Result<Json> read_json_body(BodyKind kind, const httplib::Request& req, const httplib::ContentReader* reader,
                            BodyLimits limits, bool& consumed);

// The deepest nesting of arrays and objects in JSON text (strings skipped),
// counted without parsing, so a hostile body cannot exhaust the stack.
int json_depth(std::string_view text);

// Reads and drops what is left of a body so the connection stays usable.
// False when it was too large to drain (the connection is then closed).
bool drain_body(const httplib::ContentReader& reader);

void write_error(httplib::Response& res, const Error& error);
void write_reply(const httplib::Request& req, httplib::Response& res, Reply reply, model::Framing framing);

// Fills an empty error response that the HTTP library produced by itself
// (malformed request, URI too long, bad Range) with the JSON error body.
bool fill_library_error(const httplib::Request& req, httplib::Response& res);

}  // namespace jgrid::api
