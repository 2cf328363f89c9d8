#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "api/request_checks.hpp"

using namespace jgrid::api;

TEST_CASE("api::check_origin lets the server's own pages and listed origins change state", "[http]") {
  const std::vector<std::string> none;
  SECTION("no Origin (curl, SDKs) and reads from anywhere pass") {
    CHECK(check_origin("POST", "", "127.0.0.1:8420", false, true, none).ok());
    CHECK(check_origin("GET", "http://evil.example", "127.0.0.1:8420", false, true, none).ok());
  }
  SECTION("the dashboard: Origin is this server's own") {
    CHECK(check_origin("POST", "http://127.0.0.1:8420", "127.0.0.1:8420", false, true, none).ok());
    CHECK(check_origin("DELETE", "http://localhost:8420", "localhost:8420", false, true, none).ok());
    CHECK(check_origin("POST", "https://[::1]:8420", "[::1]:8420", true, true, none).ok());
  }
  SECTION("another site, the opaque null origin, or the scheme of another server are refused") {
    auto foreign = check_origin("POST", "http://evil.example", "127.0.0.1:8420", false, true, none);
    REQUIRE_FALSE(foreign.ok());
    CHECK(foreign.error().code == "FORBIDDEN");
    CHECK(foreign.error().message.find("--allow-origin http://evil.example") != std::string::npos);
    CHECK_FALSE(check_origin("PUT", "null", "127.0.0.1:8420", false, true, none).ok());
    CHECK_FALSE(check_origin("POST", "https://127.0.0.1:8420", "127.0.0.1:8420", false, true, none).ok());
    CHECK_FALSE(check_origin("POST", "http://127.0.0.1:9999", "127.0.0.1:8420", false, true, none).ok());
  }
  SECTION("a rebinding page names itself in Origin and Host: refused on a loopback server only") {
    CHECK_FALSE(check_origin("POST", "http://rebind.example:8420", "rebind.example:8420", false, true, none).ok());
    CHECK(check_origin("POST", "http://grid.internal:8420", "grid.internal:8420", false, false, none).ok());
  }
  SECTION("--allow-origin entries, normalised, and * for any") {
    std::vector<std::string> allowed = {"http://LocalHost:3000/"};
    CHECK(check_origin("POST", "http://localhost:3000", "127.0.0.1:8420", false, true, allowed).ok());
    CHECK_FALSE(check_origin("POST", "http://localhost:3001", "127.0.0.1:8420", false, true, allowed).ok());
    CHECK(check_origin("POST", "http://evil.example", "127.0.0.1:8420", false, true, {"*"}).ok());
  }
}

TEST_CASE("api::check_json_content_type takes JSON types only", "[http]") {
  CHECK(check_json_content_type("application/json").ok());
  CHECK(check_json_content_type("Application/JSON; charset=utf-8").ok());
  CHECK(check_json_content_type("application/merge-patch+json").ok());
  for (const char* type : {"", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                           "application/xml", "text/json+plain", "+json"}) {
    auto result = check_json_content_type(type);
    INFO(type);
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().code == "UNSUPPORTED_MEDIA_TYPE");
    CHECK(result.error().message.find("application/json") != std::string::npos);
  }
}

TEST_CASE("api::is_loopback_host knows loopback names with and without ports", "[http]") {
  for (const char* host : {"localhost", "localhost:8420", "LOCALHOST.", "app.localhost:3000", "127.0.0.1",
                           "127.1.2.3:9", "[::1]", "[::1]:8420"})
    CHECK(is_loopback_host(host));
  for (const char* host : {"", "example.com", "127.0.0.1.evil.example", "localhost.evil.example", "[::2]:1",
                           "10.0.0.1:8420"})
    CHECK_FALSE(is_loopback_host(host));
}
