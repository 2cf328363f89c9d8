#pragma once
// The one place where requests are checked against the route table's access
// column (docs/api.md §2, §4). Handlers never look at keys.
#include <optional>

#include "api/call.hpp"
#include "api/route_table.hpp"
#include "jgrid/api/auth.hpp"

namespace jgrid::api {

// The workspace the call acts in. "local" with auth off and on routes that
// need no key. Errors: UNAUTHORIZED (no, unknown or revoked key; wrong or
// missing service token), FORBIDDEN (the key holds none of the route's
// scopes; the message names them).
Result<std::string> authorize(const AuthOptions& auth, const Access& access, const Call& call);

// The key whose text equals `token`, compared in constant time against every
// key (the time taken does not depend on which key matched, if any).
std::optional<ApiKey> find_key(const AuthOptions& auth, const std::string& token);

}  // namespace jgrid::api
