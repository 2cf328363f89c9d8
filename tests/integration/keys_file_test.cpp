// api::load_keys_file and api::authorize: the keys file contract and the one
// access check (docs/api.md §4).
#include <unistd.h>

#include <fstream>

#include "api/authorize.hpp"
#include "api/http_io.hpp"
#include "api/subscriber_slots.hpp"
#include "test_server.hpp"

using namespace jgrid::api;

namespace {

std::filesystem::path write_keys(const std::string& text) {
  auto path = std::filesystem::temp_directory_path() / ("jgrid-keys-test-" + std::to_string(::getpid()) + ".json");
  std::ofstream(path, std::ios::trunc) << text;
  return path;
}

Call with_bearer(const std::string& token) {
  Call call;
  call.authorization = "Bearer " + token;
  return call;
}

AuthOptions keyed() {
  AuthOptions auth;
  auth.keys_required = true;
  auth.keys = {{"jg_reader_0001", "w1", {"jobs:read"}, false}, {"jg_revoked_001", "w1", {"jobs:read"}, true}};
  auth.service_token = "svc_0123456789abcdef";
  return auth;
}

}  // namespace

TEST_CASE("api::load_keys_file reads keys and names the file and field of a mistake", "[api][auth]") {
  auto good = load_keys_file(write_keys(
      R"({"keys": [{"key": "jg_abcdefgh", "workspace": "w1", "scopes": ["jobs:read", "logs:read"]},
                   {"key": "jg_abcdefgi", "workspace": "w2", "scopes": [], "revoked": true}]})"));
  REQUIRE(good.ok());
  REQUIRE(good->size() == 2);
  CHECK((*good)[0].scopes == std::vector<std::string>{"jobs:read", "logs:read"});
  CHECK((*good)[1].revoked);
  auto bad = load_keys_file(write_keys(R"({"keys": [{"key": "jg_abcdefgh", "workspace": "", "scopes": []}]})"));
  REQUIRE(!bad.ok());
  CHECK(bad.error().code == "INVALID_KEYS_FILE");
  CHECK(bad.error().message.find(".json: keys[0].workspace:") != std::string::npos);
  CHECK(bad.error().message.find("jg_abcdefgh") == std::string::npos);  // keys are never echoed
  CHECK(!load_keys_file("/nonexistent/keys.json").ok());
}

TEST_CASE("api::authorize: open, signature, scopes and service access", "[api][auth]") {
  AuthOptions auth = keyed();
  Access read{AccessKind::scopes, {"jobs:read", "jobs:write"}};
  Access write{AccessKind::scopes, {"jobs:write"}};
  CHECK(*authorize(auth, read, with_bearer("jg_reader_0001")) == "w1");
  CHECK(authorize(auth, read, Call{}).error().code == "UNAUTHORIZED");
  CHECK(authorize(auth, read, with_bearer("jg_revoked_001")).error().code == "UNAUTHORIZED");
  CHECK(authorize(auth, read, with_bearer("jg_reader_000")).error().code == "UNAUTHORIZED");
  auto forbidden = authorize(auth, write, with_bearer("jg_reader_0001"));
  CHECK(forbidden.error().code == "FORBIDDEN");
  CHECK(forbidden.error().message == "api key missing jobs:write scope");
  CHECK(*authorize(auth, Access{AccessKind::open, {}}, Call{}) == "local");
  CHECK(*authorize(auth, Access{AccessKind::signature, {}}, Call{}) == "local");
  Access service{AccessKind::service, {}};
  CHECK(authorize(auth, service, with_bearer("jg_reader_0001")).error().code == "UNAUTHORIZED");
  CHECK(authorize(auth, service, with_bearer(auth.service_token)).ok());
  AuthOptions off;
  CHECK(*authorize(off, write, with_bearer("anything")) == "local");
  CHECK(!authorize(off, service, with_bearer("")).ok());
}

TEST_CASE("api::json_depth counts arrays and objects outside strings", "[api][limits]") {
  CHECK(json_depth("{}") == 1);
  CHECK(json_depth(R"({"a": [[{}]]})") == 4);
  CHECK(json_depth(R"({"a": "[[[[\"[[["})") == 1);
  CHECK(json_depth("[[]][[[]]]") == 3);
}

TEST_CASE("api::SubscriberSlots admits per_job streams per job and frees on release", "[api][limits]") {
  SubscriberSlots slots(2);
  auto a = slots.acquire("job_1");
  auto b = slots.acquire("job_1");
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(slots.acquire("job_1").error().code == "RATE_LIMITED");
  CHECK(slots.acquire("job_2").ok());
  a->reset();
  CHECK(slots.acquire("job_1").ok());
}
