// api signed URLs: what verifies and what does not.
#include <catch2/catch.hpp>

#include "api/signing.hpp"
#include "jgrid/util/strings.hpp"

using jgrid::api::Call;
using jgrid::api::signed_query;
using jgrid::api::verify_signature;

namespace {

Call call_with(const std::string& query) {
  Call call;
  for (const auto& pair : jgrid::util::split(query, '&')) {
    auto eq = pair.find('=');
    call.query[pair.substr(0, eq)] = pair.substr(eq + 1);
  }
  return call;
}

}  // namespace

TEST_CASE("api::verify_signature accepts its own URLs until they expire", "[api][signing]") {
  std::string query = signed_query("secret", "art_1", 1000);
  CHECK(verify_signature("secret", "art_1", call_with(query), 999).ok());
  CHECK(verify_signature("secret", "art_1", call_with(query), 1000).ok());
  CHECK(verify_signature("secret", "art_1", call_with(query), 1001).error().message.find("expired") !=
        std::string::npos);
}

TEST_CASE("api::verify_signature refuses other subjects, secrets and edits", "[api][signing]") {
  std::string query = signed_query("secret", "art_1", 1000);
  CHECK(verify_signature("secret", "art_2", call_with(query), 0).error().code == "FORBIDDEN");
  CHECK(verify_signature("other", "art_1", call_with(query), 0).error().code == "FORBIDDEN");
  CHECK(verify_signature("secret", "art_1", call_with("expires=2000&" + query.substr(query.find("sig="))), 0)
            .error().code == "FORBIDDEN");
  CHECK(verify_signature("secret", "art_1", call_with(""), 0).error().code == "FORBIDDEN");
  // Upload URLs sign another subject, so an artifact signature cannot open an upload.
  CHECK(!verify_signature("secret", jgrid::api::upload_subject("art_1"), call_with(query), 0).ok());
}
