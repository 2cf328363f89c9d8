#include <catch2/catch.hpp>
#include <string>

#include "api/request_head.hpp"

using namespace jgrid::api;
using State = HeadScan::State;

TEST_CASE("api::scan_head finds the end of a head and waits for the rest", "[http]") {
  HeadLimits limits;
  SECTION("complete with CRLF endings, body bytes after it untouched") {
    std::string head = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
    auto scan = scan_head(head + "{\"body\":1}", limits);
    CHECK(scan.state == State::complete);
    CHECK(scan.end == head.size());
  }
  SECTION("bare LF endings as the library reads them") {
    auto scan = scan_head("GET / HTTP/1.1\nHost: x\n\n", limits);
    CHECK(scan.state == State::complete);
    CHECK(scan.end == 24);
  }
  SECTION("incomplete: a request line only, a header line cut short, no empty line yet") {
    CHECK(scan_head("GET / HTT", limits).state == State::incomplete);
    CHECK(scan_head("GET / HTTP/1.1\r\nHost: x", limits).state == State::incomplete);
    CHECK(scan_head("GET / HTTP/1.1\r\nHost: x\r\n", limits).state == State::incomplete);
    CHECK(scan_head("", limits).state == State::incomplete);
  }
}

TEST_CASE("api::scan_head refuses a head over a limit before it is complete", "[http]") {
  HeadLimits limits;
  limits.max_request_line = 64;
  limits.max_header_line = 32;
  limits.max_header_count = 3;
  limits.max_head_bytes = 128;
  SECTION("a request line over its limit is 414, even unfinished") {
    auto scan = scan_head("GET /" + std::string(70, 'a'), limits);
    CHECK(scan.state == State::refused);
    CHECK(scan.status == 414);
    CHECK(scan.code == "URI_TOO_LONG");
    CHECK(scan.message.find("64") != std::string::npos);
  }
  SECTION("a request line at its limit passes") {
    std::string line = "GET /" + std::string(64 - 14, 'a') + " HTTP/1.1";
    REQUIRE(line.size() == 64);
    CHECK(scan_head(line + "\r\n\r\n", limits).state == State::complete);
  }
  SECTION("one header line over its limit is 431, even unfinished") {
    auto scan = scan_head("GET / HTTP/1.1\r\nX: " + std::string(40, 'b'), limits);
    CHECK(scan.state == State::refused);
    CHECK(scan.status == 431);
    CHECK(scan.message.find("header line") != std::string::npos);
  }
  SECTION("more header lines than the count is 431 naming the count") {
    auto scan = scan_head("GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n", limits);
    CHECK(scan.state == State::refused);
    CHECK(scan.message.find("header count") != std::string::npos);
    CHECK(scan_head("GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n", limits).state == State::complete);
  }
  SECTION("a head over its total bytes is 431, before its end arrives") {
    limits.max_header_count = 100;
    std::string head = "GET / HTTP/1.1\r\n";
    for (int i = 0; i < 8; ++i) head += "X-" + std::to_string(i) + ": " + std::string(20, 'c') + "\r\n";
    auto scan = scan_head(head, limits);
    CHECK(scan.state == State::refused);
    CHECK(scan.status == 431);
    CHECK(scan.message.find("request head bytes") != std::string::npos);
  }
}
