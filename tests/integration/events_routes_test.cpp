// docs/api.md §2.7: job events as pages, and the server-wide SSE feed.
#include <algorithm>

#include "test_server.hpp"

using jgrid::test::Json;
using jgrid::test::parse_sse;
using jgrid::test::rocm_example;
using jgrid::test::TestServer;

namespace {

std::vector<std::string> types_of(const Json& items) {
  std::vector<std::string> out;
  for (const auto& item : items) out.push_back(item["type"]);
  return out;
}

}  // namespace

TEST_CASE("api job events run in order from job.submitted to job.completed", "[api][events]") {
  TestServer server;
  std::string id = server.submit(rocm_example());
  server.wait_terminal(id);
  auto reply = server.get("/v1/jobs/" + id + "/events?limit=1000");
  INFO(reply.body);
  REQUIRE(reply.status == 200);
  CHECK(reply.json["job_id"] == id);
  CHECK(reply.json["status"] == "completed");
  CHECK(reply.json["phase"].is_string());
  CHECK(reply.json["generated_at"].is_string());
  auto types = types_of(reply.json["items"]);
  REQUIRE(types.size() >= 4);
  CHECK(types.front() == "job.submitted");
  CHECK(types.back() == "job.completed");
  CHECK(std::find(types.begin(), types.end(), "job.running") != types.end());
  std::int64_t previous = 0;
  for (const auto& item : reply.json["items"]) {
    for (auto field : {"id", "title", "message", "created_at", "source", "level", "data"}) CHECK(item.contains(field));
    CHECK(item["sequence"].get<std::int64_t>() > previous);
    previous = item["sequence"];
  }
}

TEST_CASE("api job events page with a cursor and filter by type", "[api][events]") {
  TestServer server;
  std::string id = server.submit(rocm_example());
  server.wait_terminal(id);
  auto all = types_of(server.get("/v1/jobs/" + id + "/events").json["items"]);
  std::vector<std::string> paged;
  std::string cursor;
  for (std::size_t i = 0; i <= all.size(); ++i) {
    auto page = server.get("/v1/jobs/" + id + "/events?limit=2" + (cursor.empty() ? "" : "&cursor=" + cursor)).json;
    for (auto& type : types_of(page["items"])) paged.push_back(type);
    if (!page["has_more"].get<bool>()) break;
    cursor = page["next_cursor"].get<std::string>();
  }
  CHECK(paged == all);
  CHECK(types_of(server.get("/v1/jobs/" + id + "/events?type=job.completed").json["items"]) ==
        std::vector<std::string>{"job.completed"});
  CHECK(server.get("/v1/jobs/" + id + "/events?since=2999-01-01T00:00:00.000Z").json["items"].empty());
  CHECK(server.get("/v1/jobs/" + id + "/events?since=yesterday").status == 400);
  CHECK(server.get("/v1/jobs/" + id + "/events?cursor=x").status == 400);
}

TEST_CASE("api /v1/events streams every event and replays after Last-Event-ID", "[api][events][sse]") {
  TestServer server;
  std::string id = server.submit(rocm_example());
  server.wait_terminal(id);
  auto done = [&](const std::string& text) {
    for (const auto& event : parse_sse(text))
      if (event.event == "job.completed" && event.data.value("job_id", "") == id) return true;
    return false;
  };
  auto all = parse_sse(server.read_stream("/v1/events", {{"Last-Event-ID", "0"}}, done));
  std::vector<jgrid::test::SseEvent> events;
  for (const auto& event : all)
    if (event.data.value("job_id", "") == id) events.push_back(event);
  REQUIRE(events.size() >= 2);
  CHECK(events.front().event == "job.submitted");
  CHECK(events.front().data["job_id"] == id);
  CHECK(events.back().event == "job.completed");
  for (std::size_t i = 1; i < events.size(); ++i) CHECK(std::stoll(events[i].id) > std::stoll(events[i - 1].id));

  // Resuming after the first event skips it.
  auto rest = parse_sse(server.read_stream("/v1/events", {{"Last-Event-ID", all.front().id}}, done));
  REQUIRE(all.size() >= 2);
  REQUIRE(!rest.empty());
  CHECK(rest.front().id == all[1].id);
}

TEST_CASE("api /v1/events without Last-Event-ID sends only new events", "[api][events][sse]") {
  TestServer server;
  std::string first = server.submit(rocm_example());
  server.wait_terminal(first);
  std::string second;
  std::thread submitter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    second = server.submit(rocm_example());
  });
  auto text = server.read_stream("/v1/events", {}, [](const std::string& received) {
    return received.find("event: job.completed") != std::string::npos;
  });
  submitter.join();
  auto events = parse_sse(text);
  REQUIRE(!events.empty());
  for (const auto& event : events) CHECK(event.data.value("job_id", "") != first);
  CHECK(events.back().data.value("job_id", "") == second);
}
