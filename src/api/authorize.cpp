#include "api/authorize.hpp"

#include <algorithm>

#include "api/params.hpp"
#include "jgrid/util/crypto.hpp"

namespace jgrid::api {
namespace {

constexpr std::string_view k_local_workspace = "local";

// Equal-length digests: the comparison time says nothing about the length
// or the prefix of the secret.
bool same_secret(const std::string& a, const std::string& b) {
  return util::constant_time_equal(util::sha256_hex(a), util::sha256_hex(b));
}

Error unauthorized(const std::string& message) { return make_error("UNAUTHORIZED", message); }

std::string scope_list(const std::vector<std::string_view>& scopes) {
  std::string out;
  for (std::size_t i = 0; i < scopes.size(); ++i)
    out += std::string(i == 0 ? "" : i + 1 == scopes.size() ? " or " : ", ") + std::string(scopes[i]);
  return out;
}

bool holds_any(const ApiKey& key, const std::vector<std::string_view>& wanted) {
  return std::any_of(wanted.begin(), wanted.end(), [&key](std::string_view scope) {
    return std::find(key.scopes.begin(), key.scopes.end(), scope) != key.scopes.end();
  });
}

Result<std::string> check_service(const AuthOptions& auth, const Call& call) {
  std::string token = bearer_token(call);
  if (auth.service_token.empty()) return unauthorized(
        "introspection is off: the server has no service token (--service-token, --service-token-file or "
        "JGRID_SERVICE_TOKEN)");
  if (token.empty() || !same_secret(token, auth.service_token))
    return unauthorized("service token missing or wrong");
  return std::string(k_local_workspace);
}

Result<std::string> check_key(const AuthOptions& auth, const Access& access, const Call& call) {
  std::string token = bearer_token(call);
  if (token.empty()) return unauthorized("api key required: send Authorization: Bearer <key>");
  auto key = find_key(auth, token);
  if (!key || key->revoked) return unauthorized("api key unknown or revoked");
  if (!holds_any(*key, access.any_of))
    return make_error("FORBIDDEN", "api key missing " + scope_list(access.any_of) + " scope",
                      Json{{"required_scopes", access.any_of}});
  return key->workspace;
}

}  // namespace

std::optional<ApiKey> find_key(const AuthOptions& auth, const std::string& token) {
  std::optional<ApiKey> found;
  for (const auto& key : auth.keys)
    if (same_secret(key.key, token) && !found) found = key;
  return found;
}

Result<std::string> authorize(const AuthOptions& auth, const Access& access, const Call& call) {
  switch (access.kind) {
    case AccessKind::open:
    case AccessKind::signature:
      return std::string(k_local_workspace);
    case AccessKind::service:
      return check_service(auth, call);
    case AccessKind::scopes:
      if (!auth.keys_required) return std::string(k_local_workspace);
      return check_key(auth, access, call);
    case AccessKind::scopes_or_token:
      if (!auth.keys_required) return std::string(k_local_workspace);
      if (!find_key(auth, bearer_token(call))) return std::string();
      return check_key(auth, access, call);
  }
  return std::string(k_local_workspace);
}

}  // namespace jgrid::api
