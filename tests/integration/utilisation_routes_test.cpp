// GET /v1/sim/utilisation through real HTTP (docs/api.md §2.12): the fleet's
// queue and GPUs in use per pool, sampled every 5 s of the virtual clock.
#include <future>

#include "test_server.hpp"

using namespace jgrid;
using namespace jgrid::test;

namespace {

const std::vector<std::string> k_pools = {"mi300x-east", "mi250-west", "w7900-east", "h100-west", "l4-east"};

void node_operation(const TestServer& server, const std::string& node, const std::string& op) {
  REQUIRE(server.post("/v1/sim/nodes/" + node + "/" + op, Json::object()).status == 200);
}

Json utilisation(const TestServer& server) {
  auto reply = server.get("/v1/sim/utilisation");
  INFO(reply.body);
  REQUIRE(reply.status == 200);
  return reply.json;
}

template <typename T>
T last(const Json& series) {
  REQUIRE_FALSE(series.empty());
  return series.back().get<T>();
}

// Every series has one value per time; times rise, on the 5 s grid but the
// last (now), and t_s counts from the first.
void check_shape(const Json& body) {
  const Json& t_ms = body.at("t_ms");
  REQUIRE(t_ms.size() >= 1);
  CHECK(t_ms.back() == body.at("now_ms"));
  CHECK(body.at("t_s").size() == t_ms.size());
  CHECK(body.at("t_s")[0] == 0);
  CHECK(body.at("queued").size() == t_ms.size());
  for (std::size_t i = 0; i + 1 < t_ms.size(); ++i) {
    CHECK(t_ms[i].get<std::int64_t>() % 5000 == 0);
    CHECK(t_ms[i].get<std::int64_t>() < t_ms[i + 1].get<std::int64_t>());
  }
  for (const auto& pool : k_pools)
    for (const char* member : {"running_gpus", "total_gpus", "busy_share"})
      CHECK(body.at(member).at(pool).size() == t_ms.size());
}

}  // namespace

TEST_CASE("sim: GET /v1/sim/utilisation follows the queue and the GPUs in use per pool", "[sim]") {
  TestServerOptions options;
  options.virtual_clock = true;
  TestServer server(options);
  server.clock().hold();  // time moves only when this test moves it
  Json fresh = utilisation(server);
  check_shape(fresh);
  CHECK(fresh["interval_seconds"] == 5);
  CHECK(fresh["max_samples"] == 2880);
  CHECK(fresh["clock"] == "virtual");
  CHECK(fresh["pools"] == Json(k_pools));
  CHECK(last<int>(fresh["total_gpus"]["mi300x-east"]) == 16);
  CHECK(last<int>(fresh["queued"]) == 0);

  auto nodes = server.get("/v1/nodes");  // kept: a range-for would not keep the reply alive
  for (const auto& node : nodes.json.at("nodes")) node_operation(server, node.at("id").get<std::string>(), "drain");
  std::vector<std::string> ids;
  for (int i = 0; i < 2; ++i) {
    Json body = rocm_example();
    body["sim"] = {{"duration_s", 600}};
    ids.push_back(server.submit(body));
  }
  run_due_timers(server.clock());  // the scheduling pass is a timer of the held clock
  for (const auto& id : ids) server.wait_job(id, [](const Json& job) { return job["delay_reason"].is_object(); });
  Json waiting = utilisation(server);
  CHECK(last<int>(waiting["queued"]) == 2);
  CHECK(last<int>(waiting["total_gpus"]["mi300x-east"]) == 16);  // draining nodes still count

  REQUIRE(server.post("/v1/sim/clock/advance", Json{{"seconds", 12}}).status == 200);
  run_due_timers(server.clock());
  Json later = utilisation(server);
  check_shape(later);
  std::int64_t now = later["now_ms"].get<std::int64_t>();
  int queued_samples = 0;
  for (std::size_t i = 0; i < later["t_ms"].size(); ++i)
    if (later["t_ms"][i].get<std::int64_t>() > now - 12'000) queued_samples += later["queued"][i] == 2;
  CHECK(queued_samples >= 3);  // two grid samples in those 12 s, and now

  node_operation(server, "mi300x-east-1", "undrain");
  run_due_timers(server.clock());
  for (const auto& id : ids)
    server.wait_job(id, [](const Json& job) { return job.contains("assigned_node_id"); });
  Json placed = utilisation(server);
  CHECK(last<int>(placed["queued"]) == 0);
  CHECK(last<int>(placed["running_gpus"]["mi300x-east"]) == 2);
  CHECK(last<double>(placed["busy_share"]["mi300x-east"]) == Approx(2.0 / 16));
  CHECK(last<int>(placed["running_gpus"]["h100-west"]) == 0);

  node_operation(server, "mi300x-east-2", "offline");
  Json offline = utilisation(server);
  CHECK(last<int>(offline["total_gpus"]["mi300x-east"]) == 8);
  CHECK(last<double>(offline["busy_share"]["mi300x-east"]) == Approx(2.0 / 8));
  server.clock().release();
}

TEST_CASE("sim: reset forgets the utilisation samples before it", "[sim]") {
  TestServerOptions options;
  options.virtual_clock = true;
  TestServer server(options);
  REQUIRE(server.post("/v1/sim/clock/advance", Json{{"seconds", 60}}).status == 200);
  CHECK(utilisation(server)["t_ms"].size() >= 12);
  REQUIRE(server.post("/v1/sim/reset", Json::object()).status == 200);
  Json after = utilisation(server);
  check_shape(after);
  CHECK(after["t_ms"].size() <= 2);
}

TEST_CASE("sim: GET /v1/sim/utilisation needs jobs:write, as every /v1/sim route", "[sim][auth]") {
  TestServerOptions options;
  options.configure = [](api::ServerOptions& server) {
    server.auth.keys_required = true;
    server.auth.keys = {{"jg_w1_read_0001", "w1", {"jobs:read"}, false}, {"jg_w1_write_001", "w1", {"jobs:write"}, false}};
  };
  TestServer server(options);
  CHECK(server.get("/v1/sim/utilisation").status == 401);
  CHECK(server.get("/v1/sim/utilisation", {{"Authorization", "Bearer jg_w1_read_0001"}}).status == 403);
  CHECK(server.get("/v1/sim/utilisation", {{"Authorization", "Bearer jg_w1_write_001"}}).status == 200);
}
