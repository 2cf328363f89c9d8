// POST /oauth/introspect (RFC 7662 shape): a service holding --service-token
// asks what an API key may do. The body is a form (token=<key>) or JSON
// {"token": "<key>"}. Keys never appear in the answer.
#include "api/authorize.hpp"
#include "api/errors.hpp"
#include "api/handlers.hpp"
#include "api/params.hpp"
#include "jgrid/util/clock.hpp"
#include "jgrid/util/crypto.hpp"
#include "jgrid/util/strings.hpp"

namespace jgrid::api {
namespace {

// Keys do not expire; `exp` tells the caller how long it may cache the answer.
constexpr std::int64_t k_answer_ttl_s = 300;

Result<std::string> read_text(const Context& ctx, const Call& call) {
  std::string text;
  bool too_large = false;
  bool complete = call.read_body([&](const char* data, std::size_t size) {
    too_large = too_large || static_cast<std::int64_t>(text.size() + size) > ctx.options.max_body_bytes;
    if (!too_large) text.append(data, size);
    return !too_large;
  });
  if (too_large) return make_error("PAYLOAD_TOO_LARGE", "introspection body larger than --max-body");
  if (!complete) return invalid_request("request body ended before its declared length");
  return text;
}

std::optional<std::string> form_value(const std::string& text, const std::string& name) {
  for (const auto& pair : util::split(text, '&')) {
    auto eq = pair.find('=');
    if (eq == std::string::npos || pair.substr(0, eq) != name) continue;
    std::string value = pair.substr(eq + 1);
    for (auto& c : value) c = c == '+' ? ' ' : c;
    return util::percent_decode(value);
  }
  return std::nullopt;
}

Result<std::string> token_of(const std::string& text) {
  std::string trimmed = util::trim(text);
  if (!trimmed.empty() && trimmed.front() == '{') {
    Json body = Json::parse(trimmed, nullptr, false);
    if (body.is_discarded() || !body.is_object()) return invalid_request("request body is not a JSON object");
    if (!body.contains("token") || !body["token"].is_string())
      return invalid_request("token: expected a string", "token");
    return body["token"].get<std::string>();
  }
  auto token = form_value(trimmed, "token");
  if (!token) return invalid_request("token: missing (send token=<key> as a form or JSON body)", "token");
  return *token;
}

std::string joined(const std::vector<std::string>& scopes) {
  std::string out;
  for (const auto& scope : scopes) out += (out.empty() ? "" : " ") + scope;
  return out;
}

}  // namespace

Result<Json> introspect_key(const Context& ctx, const Call& call) {
  auto text = read_text(ctx, call);
  if (!text) return text.error();
  auto token = token_of(*text);
  if (!token) return token.error();
  auto key = find_key(ctx.options.auth, *token);
  if (!key || key->revoked) return Json{{"active", false}};
  return Json{{"active", true},
              {"iss", call.base_url},
              {"aud", "jgrid-local"},
              {"sub", "key_" + util::sha256_hex(key->key).substr(0, 16)},
              {"workspace_id", key->workspace},
              {"scope", joined(key->scopes)},
              {"exp", util::wall_now_ms() / 1000 + k_answer_ttl_s}};
}

}  // namespace jgrid::api
