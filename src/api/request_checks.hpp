#pragma once
// Checks of a request's head that keep web pages of other sites out: any
// page a browser opens can send a "simple" cross-site request (form-encoded
// or text/plain body, no preflight) to a server on 127.0.0.1, so a
// state-changing request must carry a JSON body type and, when a browser
// names its Origin, come from this server's own origin or one allowed with
// --allow-origin. Pure; thread-safe.
#include <string>
#include <string_view>
#include <vector>

#include "jgrid/util/result.hpp"

namespace jgrid::api {

// True for POST, PUT, PATCH and DELETE.
bool changes_state(std::string_view method);

// `origin` is the Origin header ("" when absent: not a browser, or a
// same-origin GET); `host` the Host header. Error FORBIDDEN naming the
// origin and --allow-origin when a state-changing request comes from
// another origin (or the opaque "null" origin). On a server that listens on
// loopback only (`loopback_server`), the own origin must name a loopback
// host too: a page whose name was made to resolve to 127.0.0.1 (DNS
// rebinding) sends its own name as both Origin and Host. "*" in `allowed`
// allows any origin.
Result<Ok> check_origin(std::string_view method, const std::string& origin, const std::string& host, bool tls,
                        bool loopback_server, const std::vector<std::string>& allowed);

// True for localhost, *.localhost, 127.x.y.z and [::1], with or without a
// port (and a trailing dot).
bool is_loopback_host(std::string_view host);

// `content_type` of a request that carries a JSON body: application/json
// or application/<anything>+json, parameters (charset) ignored. Error
// UNSUPPORTED_MEDIA_TYPE naming what was sent otherwise, absent included.
Result<Ok> check_json_content_type(const std::string& content_type);

}  // namespace jgrid::api
