#pragma once
// The one route table of docs/api.md §2 and the matcher over it. Patterns are
// literal segments and "{name}" captures; a final "{*}" captures the rest.
// Families: plain routes under /v1/jobs… may also be served enveloped under
// /v1/mcp/jobs… (same handler, Framing::envelope).
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "api/call.hpp"

namespace jgrid::api {

enum class BodyKind { none, json, optional_json, stream };
// `plain_and_mcp`: the route is also served with k_plain_prefix replaced by k_mcp_prefix.
enum class Families { plain, plain_and_mcp };
inline constexpr std::string_view k_plain_prefix = "/v1/jobs";
inline constexpr std::string_view k_mcp_prefix = "/v1/mcp/jobs";

// Who may call a route (docs/api.md §2, scope column). `open`: anyone; `signature`:
// the URL's own signature or token decides (checked by the handler), no key;
// `scopes`: with auth keys, a key holding any one of `any_of`; `service`:
// the --service-token as bearer, whatever the auth mode.
// scopes_or_token: an API key with one of the scopes, or, under --auth keys,
// a request whose bearer is no key at all; it reaches the handler with an
// empty Call::workspace and the handler checks a token of its own.
enum class AccessKind { open, signature, scopes, scopes_or_token, service };
struct Access {
  AccessKind kind = AccessKind::open;
  std::vector<std::string_view> any_of;
};

struct RouteSpec {
  std::string_view method;
  std::string_view pattern;
  std::variant<JsonHandler, ReplyHandler> handler;
  Access access;
  BodyKind body = BodyKind::none;
  Families families = Families::plain;
};

struct Route {
  std::string method;
  std::string pattern;               // as served, e.g. /v1/mcp/jobs/{id}
  std::vector<std::string> segments;
  std::variant<JsonHandler, ReplyHandler> handler;
  Access access;
  BodyKind body = BodyKind::none;
  model::Framing framing = model::Framing::plain;
};

// Every route, both families expanded. Static; thread-safe to read.
const std::vector<Route>& routes();

struct RouteMatch {
  const Route* route = nullptr;
  std::vector<std::string> captures;
};

// Splits `raw_path` (not yet decoded) on '/', tolerates one trailing slash,
// percent-decodes each segment and finds the route. HEAD matches GET.
// Errors: INVALID_REQUEST (malformed escape), NOT_FOUND (no such path),
// METHOD_NOT_ALLOWED (path known, method not; message lists the allowed).
Result<RouteMatch> match_route(std::string_view method, std::string_view raw_path);

// The table itself (defined in routes.cpp, next to the handler declarations).
const std::vector<RouteSpec>& route_specs();

}  // namespace jgrid::api
