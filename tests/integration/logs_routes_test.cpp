// docs/api.md §2.5 log pages and §2.6 live logs (SSE) over real HTTP.
#include <set>

#include "test_server.hpp"

using jgrid::test::HttpReply;
using jgrid::test::Json;
using jgrid::test::parse_sse;
using jgrid::test::rocm_example;
using jgrid::test::TestServer;
using jgrid::test::TestServerOptions;

namespace {

std::vector<std::string> messages(const Json& page) {
  std::vector<std::string> out;
  for (const auto& item : page["items"]) out.push_back(item["entry_id"]);
  return out;
}

}  // namespace

TEST_CASE("api logs of a finished job have workload output with every field", "[api][logs]") {
  TestServer server;
  std::string id = server.submit(rocm_example());
  server.wait_terminal(id);
  auto reply = server.get("/v1/jobs/" + id + "/logs");
  INFO(reply.body);
  REQUIRE(reply.status == 200);
  CHECK(reply.json["job_id"] == id);
  CHECK(reply.json["failure_highlight"] == "");
  CHECK(reply.json["usage_hint"].is_string());
  bool stdout_seen = false;
  for (const auto& item : reply.json["items"]) {
    for (auto field : {"entry_id", "sequence", "stream", "category", "source", "level", "message", "truncated",
                       "created_at", "timestamp"})
      CHECK(item.contains(field));
    if (item["category"] == "workload_stdout") {
      stdout_seen = true;
      CHECK(item["level"] == "info");
    }
  }
  CHECK(stdout_seen);
  CHECK(reply.json["has_more"] == false);
}

TEST_CASE("api log cursor polling never repeats a line", "[api][logs]") {
  TestServer server;
  std::string id = server.submit(rocm_example());
  server.wait_terminal(id);
  auto all = messages(server.get("/v1/jobs/" + id + "/logs?limit=1000").json);
  REQUIRE(all.size() >= 3);
  std::vector<std::string> paged;
  std::string cursor;
  for (std::size_t i = 0; i <= all.size(); ++i) {
    auto page = server.get("/v1/jobs/" + id + "/logs?limit=2" + (cursor.empty() ? "" : "&cursor=" + cursor)).json;
    for (auto& entry : messages(page)) paged.push_back(entry);
    if (!page["has_more"].get<bool>()) break;
    cursor = page["next_cursor"].get<std::string>();
  }
  CHECK(paged == all);
  auto last = server.get("/v1/jobs/" + id + "/logs?cursor=" + all.back());
  CHECK(last.json["items"].empty());
  CHECK(last.json["next_cursor"] == all.back());

  auto tail = server.get("/v1/jobs/" + id + "/logs?tail=1").json;
  REQUIRE(tail["items"].size() == 1);
  CHECK(tail["items"][0]["entry_id"] == all.back());
  // Keep the reply alive: the loop would otherwise walk a destroyed temporary.
  HttpReply reply = server.get("/v1/jobs/" + id + "/logs?stream=stdout");
  for (const auto& item : reply.json["items"])
    CHECK(item["stream"] == "stdout");

  for (std::string bad : {"cursor=abc", "stream=video", "limit=x", "tail=-1"}) {
    auto reply = server.get("/v1/jobs/" + id + "/logs?" + bad);
    INFO(bad);
    CHECK(reply.status == 400);
    CHECK(reply.json["error"]["code"] == "INVALID_REQUEST");
  }
}

TEST_CASE("api live logs of a finished job replay and end with terminal", "[api][logs][sse]") {
  TestServer server;
  std::string id = server.submit(rocm_example());
  server.wait_terminal(id);
  auto client = server.client();
  auto head = client.Get(("/v1/jobs/" + id + "/logs/live").c_str(), {{"Accept", "text/event-stream"}});
  REQUIRE(head);
  CHECK(head->status == 200);
  CHECK(head->get_header_value("Content-Type") == "text/event-stream");
  auto events = parse_sse(head->body);
  REQUIRE(events.size() >= 3);
  CHECK(events.front().event == "status");
  CHECK(events.back().event == "terminal");
  CHECK(events.back().data["status"] == "completed");
  CHECK(events.back().data["exit_code"] == 0);
  CHECK(events.back().data["timed_out"] == false);
  int stdout_lines = 0;
  for (const auto& event : events) {
    CHECK(event.data_lines == 1);
    CHECK(!event.id.empty());
    if (event.event != "stdout") continue;
    stdout_lines++;
    std::string text = event.data["text"];
    CHECK(text.back() == '\n');
  }
  CHECK(stdout_lines > 0);
  // Raw framing: id, then event, then one data line, LF only.
  CHECK(head->body.rfind("id: ", 0) == 0);
  CHECK(head->body.find("\r") == std::string::npos);
}

TEST_CASE("api live logs resume after Last-Event-ID", "[api][logs][sse]") {
  TestServer server;
  std::string id = server.submit(rocm_example());
  server.wait_terminal(id);
  auto all = parse_sse(server.read_stream("/v1/jobs/" + id + "/logs/live", {}, [](const std::string&) { return false; }));
  std::vector<std::string> line_ids;
  for (const auto& event : all)
    if (event.event == "stdout" || event.event == "stderr" || event.event == "notice") line_ids.push_back(event.id);
  REQUIRE(line_ids.size() >= 2);
  std::string resume = line_ids[line_ids.size() - 2];
  auto rest = parse_sse(server.read_stream("/v1/jobs/" + id + "/logs/live", {{"Last-Event-ID", resume}},
                                           [](const std::string&) { return false; }));
  std::vector<std::string> rest_ids;
  for (const auto& event : rest)
    if (event.event == "stdout" || event.event == "stderr" || event.event == "notice") rest_ids.push_back(event.id);
  CHECK(rest_ids == std::vector<std::string>{line_ids.back()});
  CHECK(rest.back().event == "terminal");
}

TEST_CASE("api live logs follow a running job with heartbeats until terminal", "[api][logs][sse]") {
  TestServerOptions options;
  options.time_scale = 10.0;
  options.heartbeat_ms = 100;
  TestServer server(options);
  Json body = rocm_example();
  body["sim"] = {{"duration_s", 15}, {"stdout_every_s", 1}};
  std::string id = server.submit(body);
  auto text = server.read_stream("/v1/jobs/" + id + "/logs/live", {}, [](const std::string&) { return false; });
  auto events = parse_sse(text);
  std::set<std::string> types;
  for (const auto& event : events) types.insert(event.event);
  CHECK(types.count("heartbeat") == 1);
  CHECK(types.count("stdout") == 1);
  REQUIRE(!events.empty());
  CHECK(events.back().event == "terminal");
  CHECK(events.back().data["status"] == "completed");
  // Status changes were streamed as they happened, ending with completed.
  std::vector<std::string> statuses;
  for (const auto& event : events)
    if (event.event == "status") statuses.push_back(event.data["status"]);
  CHECK(statuses.size() >= 2);
  CHECK(statuses.back() == "completed");
}

TEST_CASE("api a failed job highlights its last stderr line", "[api][logs]") {
  TestServer server;
  Json body = rocm_example();
  body["sim"] = {{"duration_s", 2}, {"exit_code", 3}, {"stderr", {"warming up", "boom: out of memory"}}};
  std::string id = server.submit(body);
  CHECK(server.wait_terminal(id)["status"] == "failed");
  auto logs = server.get("/v1/jobs/" + id + "/logs");
  CHECK(logs.json["failure_highlight"] == "boom: out of memory");
  bool stderr_seen = false;
  for (const auto& item : logs.json["items"])
    if (item["stream"] == "stderr") {
      stderr_seen = true;
      CHECK(item["level"] == "error");
      CHECK(item["category"] == "workload_stderr");
    }
  CHECK(stderr_seen);
  auto events = parse_sse(server.read_stream("/v1/jobs/" + id + "/logs/live", {}, [](const std::string&) { return false; }));
  REQUIRE(!events.empty());
  CHECK(events.back().data == Json{{"status", "failed"}, {"exit_code", 3}, {"timed_out", false}});
  CHECK(server.get("/v1/jobs/" + id + "/runtime").json["exit_code"] == 3);
}
