#include "jgrid/util/url.hpp"

#include <catch2/catch.hpp>

using namespace jgrid::util;

TEST_CASE("util::parse_http_url splits scheme, host, port and target", "[util]") {
  auto url = parse_http_url("HTTP://Example.COM:8080/a/b?x=1#frag");
  REQUIRE(url);
  CHECK(url->scheme == "http");
  CHECK(url->host == "example.com");
  CHECK(url->port == 8080);
  CHECK(url->target == "/a/b?x=1");
  CHECK(parse_http_url("https://h")->port == 443);
  CHECK(parse_http_url("http://h")->port == 80);
  CHECK(parse_http_url("http://h")->target == "/");
  CHECK(parse_http_url("http://[::1]:9/x")->host == "::1");
  CHECK(parse_http_url("http://[::1]:9/x")->port == 9);
}

TEST_CASE("util::parse_http_url refuses what is not an http(s) URL with a host", "[util]") {
  for (const char* bad : {"ftp://h/x", "h:80/x", "http://", "http://:80/", "http://h:0/", "http://h:99999/",
                          "http://h:x/", "http://user@h/", "http://[::1/", "http://h:/"})
    CHECK_FALSE(parse_http_url(bad));
}

TEST_CASE("util::same_listener treats loopback names as one machine", "[util]") {
  auto a = *parse_http_url("http://localhost:8420/hook");
  CHECK(same_listener(a, *parse_http_url("http://127.0.0.1:8420")));
  CHECK(same_listener(a, *parse_http_url("http://[::1]:8420")));
  CHECK(same_listener(a, *parse_http_url("http://0.0.0.0:8420")));
  CHECK_FALSE(same_listener(a, *parse_http_url("http://127.0.0.1:8421")));
  CHECK_FALSE(same_listener(a, *parse_http_url("http://example.com:8420")));
  CHECK(same_listener(*parse_http_url("http://grid.example:80/"), *parse_http_url("http://GRID.example/")));
  CHECK(origin_of(*parse_http_url("http://[::1]:9/x")) == "http://[::1]:9");
}
