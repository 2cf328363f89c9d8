// api::sse_event framing and Last-Event-ID parsing.
#include <catch2/catch.hpp>

#include "api/sse.hpp"

using jgrid::api::Json;
using jgrid::api::parse_event_id;
using jgrid::api::sse_event;

TEST_CASE("api::sse_event writes id, event and one data line", "[api][sse]") {
  CHECK(sse_event(7, "stdout", Json{{"text", "a\nb\n"}}) == "id: 7\nevent: stdout\ndata: {\"text\":\"a\\nb\\n\"}\n\n");
  CHECK(sse_event(0, "heartbeat", Json::object()) == "id: 0\nevent: heartbeat\ndata: {}\n\n");
  // Invalid UTF-8 from a workload never breaks the stream.
  CHECK(sse_event(1, "stdout", Json{{"text", std::string("\xff")}}).find("data: ") != std::string::npos);
}

TEST_CASE("api::parse_event_id reads non-negative decimals only", "[api][sse]") {
  CHECK(parse_event_id("42") == 42);
  CHECK(parse_event_id(" 42 ") == 42);
  CHECK(parse_event_id("-1") == 0);
  CHECK(parse_event_id("abc") == 0);
  CHECK(parse_event_id("") == 0);
}
