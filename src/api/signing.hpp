#pragma once
// Signed URLs: "<path>?expires=<unix seconds>&sig=<hex HMAC-SHA256(secret,
// subject + "." + expires)>". Artifact downloads sign the artifact id;
// uploads sign "upload:" + input id, so one kind cannot stand in for the other.
#include <cstdint>
#include <string>

#include "api/call.hpp"

namespace jgrid::api {

// "expires=<s>&sig=<hex>".
std::string signed_query(const std::string& secret, const std::string& subject, std::int64_t expires_s);

// Checks the call's `expires` and `sig` parameters against `subject` at
// wall time `now_s`. Error FORBIDDEN (missing, wrong or expired).
Status verify_signature(const std::string& secret, const std::string& subject, const Call& call,
                        std::int64_t now_s);

std::string upload_subject(const std::string& input_id);

}  // namespace jgrid::api
