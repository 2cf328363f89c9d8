#include "api/signing.hpp"

#include "jgrid/util/crypto.hpp"
#include "jgrid/util/strings.hpp"

namespace jgrid::api {
namespace {

std::string signature(const std::string& secret, const std::string& subject, const std::string& expires) {
  return util::hmac_sha256_hex(secret, subject + "." + expires);
}

}  // namespace

std::string signed_query(const std::string& secret, const std::string& subject, std::int64_t expires_s) {
  std::string expires = std::to_string(expires_s);
  return "expires=" + expires + "&sig=" + signature(secret, subject, expires);
}

// The signature must be exactly the lowercase hex this server writes, so
// that any change to any byte of a signed URL is refused.
Status verify_signature(const std::string& secret, const std::string& subject, const Call& call,
                        std::int64_t now_s) {
  if (secret.empty()) return make_error("FORBIDDEN", "signed URLs are off: the server has no signing secret");
  std::string expires = call.param("expires").value_or("");
  std::string sig = call.param("sig").value_or("");
  if (expires.empty() || sig.empty()) return make_error("FORBIDDEN", "signed URL required: expires and sig missing");
  auto expires_s = util::parse_int(expires);
  if (!expires_s || !util::constant_time_equal(signature(secret, subject, expires), sig))
    return make_error("FORBIDDEN", "signature does not match this URL");
  if (*expires_s < now_s) return make_error("FORBIDDEN", "signed URL expired; request a new one");
  return Ok{};
}

std::string upload_subject(const std::string& input_id) { return "upload:" + input_id; }

}  // namespace jgrid::api
