// docs/simulation.md §3–4 through real HTTP: the virtual clock, every fault effect,
// node operations, reset and the event digest.
#include <future>

#include "jgrid/model/layout.hpp"
#include "jgrid/util/time.hpp"
#include "test_server.hpp"

using namespace jgrid;
using namespace jgrid::test;

namespace {

TestServerOptions virtual_options(int max_attempts = 2) {
  TestServerOptions options;
  options.virtual_clock = true;
  options.max_attempts = max_attempts;
  return options;
}

Json job_with(Json sim) {
  Json body = rocm_example();
  body["sim"] = std::move(sim);
  return body;
}

void add_fault(const TestServer& server, const Json& rule) {
  auto reply = server.post("/v1/sim/faults", rule);
  INFO(reply.body);
  REQUIRE(reply.status == 201);
}

std::vector<std::string> event_types(const TestServer& server, const std::string& id) {
  auto reply = server.get("/v1/jobs/" + id + "/events?limit=500");
  REQUIRE(reply.status == 200);
  std::vector<std::string> types;
  const Json& events = reply.json.at("items");
  for (const auto& event : events) types.push_back(event.at("type").get<std::string>());
  return types;
}

// The `data.faults` of each job.provisioning event of the job, in order.
std::vector<Json> provisioning_faults(const TestServer& server, const std::string& id) {
  auto reply = server.get("/v1/jobs/" + id + "/events?limit=500&type=job.provisioning");
  REQUIRE(reply.status == 200);
  std::vector<Json> faults;
  for (const auto& event : reply.json.at("items")) faults.push_back(event.at("data").at("faults"));
  return faults;
}

bool has(const std::vector<std::string>& types, const std::string& type) {
  return std::find(types.begin(), types.end(), type) != types.end();
}

// Nodes in `status` (the reply is kept: a range-for over a member of a
// temporary reply would read freed memory).
int nodes_with_status(const TestServer& server, const std::string& status) {
  auto reply = server.get("/v1/nodes");
  REQUIRE(reply.status == 200);
  int count = 0;
  for (const auto& node : reply.json.at("nodes")) count += node.at("status") == status;
  return count;
}

void drain_every_node(const TestServer& server) {
  auto nodes = server.get("/v1/nodes");
  REQUIRE(nodes.status == 200);
  for (const auto& node : nodes.json.at("nodes"))
    REQUIRE(server.post("/v1/sim/nodes/" + node.at("id").get<std::string>() + "/drain", Json::object()).status == 200);
}

double seconds_between(const Json& job, const char* from, const char* to) {
  return static_cast<double>(*util::parse_time(job.at(to).get<std::string>()) -
                             *util::parse_time(job.at(from).get<std::string>())) / 1000.0;
}

}  // namespace

TEST_CASE("sim: a one-hour job on the virtual clock reports 3600 s of runtime and its cost", "[sim]") {
  TestServer server(virtual_options());
  auto clock = server.get("/v1/sim/clock");
  REQUIRE(clock.status == 200);
  CHECK(clock.json["mode"] == "virtual");
  auto id = server.submit(job_with({{"duration_s", 3600}}));
  Json job = server.wait_terminal(id);
  REQUIRE(job["status"] == "completed");
  CHECK(seconds_between(job, "started_at", "completed_at") == Approx(3600).margin(0.001));
  auto node = server.get("/v1/nodes/" + job["assigned_node_id"].get<std::string>());
  double price = node.json.at("price_per_gpu_hour").get<double>();
  CHECK(job["actual_cost_usd"].get<double>() == Approx(price * 1.0).epsilon(1e-6));
  CHECK(server.get("/v1/sim/clock").json["now_ms"].get<std::int64_t>() >= clock.json["now_ms"].get<std::int64_t>() + 3'600'000);
}

TEST_CASE("sim: POST /v1/sim/clock/advance moves virtual time and checks its body", "[sim]") {
  TestServer server(virtual_options());
  auto before = server.get("/v1/sim/clock").json["now_ms"].get<std::int64_t>();
  auto after = server.post("/v1/sim/clock/advance", Json{{"seconds", 90}});
  REQUIRE(after.status == 200);
  CHECK(after.json["now_ms"].get<std::int64_t>() == before + 90'000);
  auto bad = server.post("/v1/sim/clock/advance", Json{{"seconds", "soon"}});
  CHECK(bad.status == 400);
  CHECK_THAT(bad.body, Catch::Contains("seconds"));
  TestServer real;
  CHECK(real.post("/v1/sim/clock/advance", Json{{"seconds", 1}}).status == 409);
  CHECK(real.get("/v1/sim/clock").json["mode"] == "real");
}

TEST_CASE("sim: a job that cannot be placed is flagged delayed when the clock passes the threshold", "[sim]") {
  TestServer server(virtual_options());
  const std::int64_t threshold_s = server.engine().options().delay_threshold_ms / 1000;
  server.clock().hold();  // time moves only when this test moves it
  drain_every_node(server);
  auto id = server.submit(job_with({{"duration_s", 60}}));
  run_due_timers(server.clock());  // the scheduling pass, due now
  server.wait_job(id, [](const Json& job) { return job["delay_reason"].is_object(); });
  auto flagged = [&] {
    server.flush();
    return server.get("/v1/jobs/" + id).json;
  };

  REQUIRE(server.post("/v1/sim/clock/advance", Json{{"seconds", threshold_s - 1}}).status == 200);
  run_due_timers(server.clock());
  Json before = flagged();
  CHECK(before["delayed_start"] == false);
  CHECK(before["delay_reason"]["code"] == "CAPACITY_UNAVAILABLE");
  CHECK_FALSE(has(event_types(server, id), "job.delayed"));
  CHECK(server.get("/v1/sim/clock").json["pending_timers"].get<int>() >= 1);  // the threshold, armed

  REQUIRE(server.post("/v1/sim/clock/advance", Json{{"seconds", 2}}).status == 200);
  run_due_timers(server.clock());
  Json after = flagged();
  CHECK(after["status"] == "queued");
  CHECK(after["delayed_start"] == true);
  CHECK(after["delay_reason"]["code"] == "CAPACITY_UNAVAILABLE");  // the wait's own reason stays
  auto events = server.get("/v1/jobs/" + id + "/events?type=job.delayed");
  REQUIRE(events.json.at("items").size() == 1);
  const Json& event = events.json["items"][0];
  CHECK(event["level"] == "warning");
  CHECK(event["data"]["code"] == "QUEUE_DELAYED");
  CHECK(event["message"] == "job has been in queued for " + std::to_string(threshold_s / 60) + " min (threshold " +
                                std::to_string(threshold_s / 60) + " min)");
  std::string feed = server.read_stream("/v1/events", {{"Accept", "text/event-stream"}, {"Last-Event-ID", "0"}}, [](const std::string& received) {
    return received.find("job.delayed") != std::string::npos || received.find("heartbeat") != std::string::npos;
  });
  CHECK_THAT(feed, Catch::Contains("event: job.delayed"));
  server.clock().release();
}

TEST_CASE("sim: node_lost mid-run retries the job elsewhere and takes the node offline", "[sim]") {
  TestServer server(virtual_options());
  add_fault(server, {{"target", {{"any", true}}}, {"effect", "node_lost"}, {"after_s", 5}, {"count", 1}});
  auto id = server.submit(job_with({{"duration_s", 30}}));
  Json job = server.wait_terminal(id);
  CHECK(job["status"] == "completed");
  CHECK(job["attempts"] == 2);
  auto types = event_types(server, id);
  CHECK(has(types, "job.retrying"));
  auto faults = server.get("/v1/sim/faults").json["faults"];
  REQUIRE(faults.size() == 1);
  CHECK(faults[0]["fired"] == 1);
  CHECK(nodes_with_status(server, "offline") == 1);
  // The lost run collected nothing: one artifacts event, from the run that completed.
  CHECK(std::count(types.begin(), types.end(), "job.artifacts_collected") == 1);
  auto hits = provisioning_faults(server, id);
  REQUIRE(hits.size() == 2);
  CHECK(hits[0] == Json::array({faults[0]["id"]}));
  CHECK(hits[1].empty());
}

TEST_CASE("sim: node_lost past --max-attempts fails the job NODE_LOST", "[sim]") {
  TestServer server(virtual_options(2));
  add_fault(server, {{"target", {{"any", true}}}, {"effect", "node_lost"}});
  auto id = server.submit(job_with({{"duration_s", 30}}));
  Json job = server.wait_terminal(id);
  CHECK(job["status"] == "failed");
  CHECK(job["failure"]["code"] == "NODE_LOST");
  CHECK(job["attempts"] == 2);
  CHECK(has(event_types(server, id), "job.retrying"));
}

TEST_CASE("sim: run faults end the job with their failure code", "[sim]") {
  TestServer server(virtual_options());
  struct Case {
    Json rule;
    std::string code;
  };
  std::vector<Case> cases = {
      {{{"effect", "start_error"}}, "START_FAILED"},
      {{{"effect", "exit_code"}, {"value", 3}}, "NONZERO_EXIT"},
      {{{"effect", "oom"}}, "OOM"},
      {{{"effect", "image_pull_failed"}}, "IMAGE_PULL_FAILED"},
  };
  for (auto& [rule, code] : cases) {
    INFO(rule.dump());
    REQUIRE(server.post("/v1/sim/reset", Json::object()).status == 200);
    rule["count"] = 1;
    add_fault(server, rule);
    auto id = server.submit(job_with({{"duration_s", 20}}));
    Json job = server.wait_terminal(id);
    CHECK(job["status"] == "failed");
    CHECK(job["failure"]["code"] == code);
    if (code == "NONZERO_EXIT") CHECK(job["exit_code"] == 3);
    if (code == "OOM") CHECK(job["exit_code"] == 137);
    if (code == "IMAGE_PULL_FAILED" || code == "START_FAILED")  // nothing ran, nothing written
      CHECK(server.get("/v1/jobs/" + id + "/artifacts").json.at("artifacts").empty());
    CHECK(has(event_types(server, id), "job.failed"));
  }
}

TEST_CASE("sim: slow stretches the run by its factor", "[sim]") {
  TestServer server(virtual_options());
  add_fault(server, {{"effect", "slow"}, {"value", 3}, {"count", 1}});
  auto id = server.submit(job_with({{"duration_s", 100}}));
  Json job = server.wait_terminal(id);
  REQUIRE(job["status"] == "completed");
  CHECK(seconds_between(job, "started_at", "completed_at") == Approx(300).margin(0.01));
  auto hits = provisioning_faults(server, id);
  REQUIRE(hits.size() == 1);
  CHECK(hits[0].size() == 1);
}

TEST_CASE("sim: ecc_error drains the node and the job reruns elsewhere", "[sim]") {
  TestServer server(virtual_options());
  add_fault(server, {{"effect", "ecc_error"}, {"after_s", 2}, {"count", 1}});
  auto id = server.submit(job_with({{"duration_s", 20}}));
  Json job = server.wait_terminal(id);
  CHECK(job["status"] == "completed");
  CHECK(has(event_types(server, id), "job.retrying"));
  CHECK(nodes_with_status(server, "draining") == 1);
}

TEST_CASE("sim: preempt requeues without using up an attempt", "[sim]") {
  TestServer server(virtual_options(1));
  add_fault(server, {{"effect", "preempt"}, {"after_s", 2}, {"count", 1}});
  auto id = server.submit(job_with({{"duration_s", 20}}));
  Json job = server.wait_terminal(id);
  CHECK(job["status"] == "completed");
  CHECK(has(event_types(server, id), "job.retrying"));
}

TEST_CASE("sim: node operations change node state and offline loses its jobs", "[sim]") {
  TestServer server(virtual_options());
  std::string node = "node_mi300x-east-1";
  auto drained = server.post("/v1/sim/nodes/" + node + "/drain", Json::object());
  REQUIRE(drained.status == 200);
  CHECK(drained.json["status"] == "draining");
  CHECK(server.post("/v1/sim/nodes/mi300x-east-1/undrain", Json::object()).json["status"] == "online");
  CHECK(server.post("/v1/sim/nodes/" + node + "/explode", Json::object()).status == 400);
  CHECK(server.post("/v1/sim/nodes/node_nowhere/drain", Json::object()).status == 404);

}

TEST_CASE("sim: taking a node offline loses its running job, which reruns elsewhere", "[sim]") {
  TestServer server;  // real clock (×100): the run is in flight while the test acts
  auto id = server.submit(job_with({{"duration_s", 200}}));
  Json running = server.wait_job(id, [](const Json& job) { return job["status"] == "running"; });
  std::string placed = running["assigned_node_id"].get<std::string>();
  auto offline = server.post("/v1/sim/nodes/" + placed + "/offline", Json::object());
  REQUIRE(offline.status == 200);
  CHECK(offline.json["status"] == "offline");
  Json job = server.wait_terminal(id);
  CHECK(job["status"] == "completed");
  CHECK(job["attempts"] == 2);
  CHECK(job["assigned_node_id"] != placed);
  CHECK(has(event_types(server, id), "job.retrying"));
  CHECK(server.post("/v1/sim/nodes/" + placed + "/online", Json::object()).json["status"] == "online");
}

TEST_CASE("sim: faults API lists, deletes and refuses bad rules", "[sim]") {
  TestServer server(virtual_options());
  auto added = server.post("/v1/sim/faults", Json{{"target", {{"pool", "mi300x-east"}}}, {"effect", "oom"}});
  REQUIRE(added.status == 201);
  std::string fid = added.json["id"];
  CHECK(server.get("/v1/sim/faults").json["faults"].size() == 1);
  auto bad = server.post("/v1/sim/faults", Json{{"effect", "meteor"}});
  CHECK(bad.status == 400);
  CHECK_THAT(bad.body, Catch::Contains("effect"));
  CHECK(server.send("DELETE", "/v1/sim/faults/" + fid).status == 200);
  CHECK(server.send("DELETE", "/v1/sim/faults/" + fid).status == 404);
}

TEST_CASE("sim: reset cancels live jobs, clears faults and deletes every job", "[sim]") {
  TestServer server;  // real clock: the job is still running when reset comes
  add_fault(server, {{"effect", "oom"}, {"target", {{"job", "job_none"}}}});
  auto id = server.submit(job_with({{"duration_s", 3600}}));
  auto reset = server.post("/v1/sim/reset", Json::object());
  REQUIRE(reset.status == 200);
  CHECK(reset.json["cancelled_jobs"] == 1);
  CHECK(reset.json["deleted"]["jobs"] == 1);
  CHECK(server.get("/v1/jobs/" + id).status == 404);
  CHECK(server.get("/v1/sim/faults").json["faults"].empty());
}

TEST_CASE("sim: after reset no job of before is known, and new ones run", "[sim]") {
  TestServer server;  // real clock (x100): jobs run and wait while the test acts
  std::string done = server.submit(job_with({{"duration_s", 1}, {"artifacts", {{"result.txt", "ok"}}}}));
  REQUIRE(server.wait_terminal(done)["status"] == "completed");
  Json keyed = job_with({{"duration_s", 1}});
  auto first = server.post("/v1/jobs", keyed, {{"Idempotency-Key", "reset-key"}});
  REQUIRE(first.status == 202);
  std::string running = server.submit(job_with({{"duration_s", 3600}}));
  server.wait_job(running, [](const Json& job) { return job["status"] == "running"; });
  drain_every_node(server);
  std::string queued = server.submit(job_with({{"duration_s", 60}}));
  server.wait_job(queued, [](const Json& job) { return job["delay_reason"].is_object(); });
  std::vector<std::string> old = {done, first.json["job_id"].get<std::string>(), running, queued};
  CHECK(fs::exists(model::job_dir(server.data_dir, done)));

  auto reset = server.post("/v1/sim/reset", Json::object());
  INFO(reset.body);
  REQUIRE(reset.status == 200);
  CHECK(reset.json["cancelled_jobs"].get<int>() >= 2);  // running and queued (the keyed one may have ended)
  CHECK(reset.json["deleted"]["jobs"] == 4);
  CHECK(reset.json["deleted"]["events"].get<int>() > 10);
  for (const auto& id : old) {
    INFO(id);
    CHECK(server.get("/v1/jobs/" + id).status == 404);
    CHECK(server.get("/v1/jobs/" + id + "/events").status == 404);
    CHECK(server.get("/v1/jobs/" + id + "/logs").status == 404);
    CHECK(server.get("/v1/jobs/" + id + "/artifacts").status == 404);
    CHECK(server.store().list_events(store::EventQuery{id}).empty());
    CHECK_FALSE(fs::exists(model::job_dir(server.data_dir, id)));
  }
  CHECK(server.get("/v1/jobs").json["jobs"].empty());
  CHECK(server.get("/v1/jobs?status=cancelled").json["jobs"].empty());
  CHECK(server.get("/v1/health").json["store"]["jobs"] == 0);
  CHECK(server.store().count_jobs_by_status().empty());
  CHECK(nodes_with_status(server, "draining") == 0);

  auto again = server.post("/v1/jobs", job_with({{"duration_s", 2}}), {{"Idempotency-Key", "reset-key"}});
  REQUIRE(again.status == 202);  // the key is free again: a new job, not a replay
  std::string fresh = again.json["job_id"].get<std::string>();
  CHECK(std::find(old.begin(), old.end(), fresh) == old.end());
  CHECK(server.wait_terminal(fresh)["status"] == "completed");
  CHECK(server.get("/v1/jobs").json["jobs"].size() == 1);
  CHECK(server.get("/v1/health").json["store"]["jobs"] == 1);
}

TEST_CASE("sim: the same submissions on a virtual clock give the same digest", "[sim]") {
  auto run = [] {
    TestServer server(virtual_options());
    for (int i = 0; i < 3; ++i) server.wait_terminal(server.submit(job_with({{"duration_s", 10 + i}})));
    server.wait_terminal(server.submit(rocm_example()));
    auto digest = server.get("/v1/sim/digest");
    REQUIRE(digest.status == 200);
    CHECK(digest.json["events"].get<int>() > 10);
    return digest.json["digest"].get<std::string>();
  };
  std::string first = run();
  CHECK(first.size() == 64);
  CHECK(run() == first);
}
