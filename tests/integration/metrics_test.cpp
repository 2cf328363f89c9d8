// docs/api.md §2.11 /metrics: Prometheus text that parses, carries every series
// family named there, and moves when a job runs.
#include <map>
#include <sstream>

#include "test_server.hpp"

using jgrid::test::Json;
using jgrid::test::TestServer;

namespace {

struct Scrape {
  std::map<std::string, std::string> types;  // family -> counter|gauge|histogram
  std::map<std::string, double> samples;     // "name{labels}" -> value
  std::vector<std::string> bad_lines;

  double value(const std::string& series) const {
    auto it = samples.find(series);
    return it == samples.end() ? 0 : it->second;
  }
  // Sum over every series of `name` whose labels contain `fragment`.
  double sum(const std::string& name, const std::string& fragment = "") const {
    double total = 0;
    for (const auto& [series, value] : samples) {
      auto brace = series.find('{');
      if (series.substr(0, brace) == name && series.find(fragment) != std::string::npos) total += value;
    }
    return total;
  }
};

// A small parser of the text exposition format: comment lines, then
// `name{labels} value` samples; anything else is recorded as bad.
Scrape parse(const std::string& text) {
  Scrape scrape;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("# TYPE ", 0) == 0) {
      std::istringstream words(line.substr(7));
      std::string name, type;
      words >> name >> type;
      scrape.types[name] = type;
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    auto space = line.rfind(' ');
    std::string series = line.substr(0, space);
    try {
      std::size_t used = 0;
      std::string number = line.substr(space + 1);
      double value = number == "+Inf" ? 1e300 : std::stod(number, &used);
      if (number != "+Inf" && used != number.size()) throw std::invalid_argument(number);
      scrape.samples[series] = value;
    } catch (const std::exception&) {
      scrape.bad_lines.push_back(line);
    }
  }
  return scrape;
}

Scrape scrape(const TestServer& server) {
  auto reply = server.get("/metrics");
  REQUIRE(reply.status == 200);
  CHECK(reply.header("Content-Type").find("text/plain") == 0);
  auto parsed = parse(reply.body);
  INFO(reply.body);
  CHECK(parsed.bad_lines.empty());
  return parsed;
}

}  // namespace

TEST_CASE("api /metrics exposes every series family of docs/api.md 2.11 with a type", "[api][metrics]") {
  TestServer server;
  auto metrics = scrape(server);
  const std::pair<const char*, const char*> families[] = {
      {"jgrid_jobs", "gauge"},
      {"jgrid_submit_total", "counter"},
      {"jgrid_submit_duration_seconds", "histogram"},
      {"jgrid_queue_depth", "gauge"},
      {"jgrid_node_gpus_free", "gauge"},
      {"jgrid_sse_subscribers", "gauge"},
      {"jgrid_callback_deliveries_total", "counter"},
      {"jgrid_http_requests_total", "counter"},
      {"jgrid_http_request_duration_seconds", "histogram"},
      {"jgrid_screen_total", "counter"},
      {"jgrid_screen_duration_seconds", "histogram"},
      {"jgrid_route_total", "counter"},
      {"jgrid_route_duration_seconds", "histogram"},
      {"jgrid_node_gpus", "gauge"},
      {"jgrid_nodes", "gauge"},
  };
  for (const auto& [name, type] : families) {
    INFO(name);
    CHECK(metrics.types[name] == type);
  }
  CHECK(metrics.value("jgrid_jobs{status=\"completed\"}") == 0);
  // Series with a fixed label set are there (at zero) before their first event.
  for (const char* series : {"jgrid_submit_total{result=\"accepted\"}", "jgrid_submit_duration_seconds_count",
                             "jgrid_screen_total{result=\"blocked\"}", "jgrid_screen_duration_seconds_count",
                             "jgrid_route_total{result=\"waiting\"}", "jgrid_route_duration_seconds_count",
                             "jgrid_callback_deliveries_total{result=\"failed\"}", "jgrid_queue_depth"}) {
    INFO(series);
    CHECK(metrics.samples.count(series) == 1);
  }
  CHECK(metrics.value("jgrid_node_gpus_free{vendor=\"amd\"}") > 0);
}

TEST_CASE("api /metrics series move when a job runs", "[api][metrics]") {
  TestServer server;
  auto before = scrape(server);
  auto id = server.submit(jgrid::test::rocm_example());
  server.wait_terminal(id);
  REQUIRE(server.post("/v1/jobs", Json{{"workload_type", "inference"}}).status == 400);
  auto after = scrape(server);

  CHECK(after.value("jgrid_jobs{status=\"completed\"}") == before.value("jgrid_jobs{status=\"completed\"}") + 1);
  CHECK(after.value("jgrid_submit_total{result=\"accepted\"}") ==
        before.value("jgrid_submit_total{result=\"accepted\"}") + 1);
  CHECK(after.value("jgrid_submit_total{result=\"INVALID_REQUEST\"}") >= 1);
  CHECK(after.sum("jgrid_submit_duration_seconds_count") > before.sum("jgrid_submit_duration_seconds_count"));
  CHECK(after.sum("jgrid_screen_total") > before.sum("jgrid_screen_total"));
  CHECK(after.sum("jgrid_route_total", "placed") > before.sum("jgrid_route_total", "placed"));
  CHECK(after.sum("jgrid_http_requests_total", "route=\"/v1/jobs\",code=\"202\"") >
        before.sum("jgrid_http_requests_total", "route=\"/v1/jobs\",code=\"202\""));
  CHECK(after.sum("jgrid_http_requests_total", "route=\"/v1/jobs/{id}\",code=\"200\"") >= 1);
}

TEST_CASE("api /metrics gauges follow running and waiting jobs", "[api][metrics]") {
  TestServer server;
  auto idle = scrape(server);
  // Every MI300X GPU of the built-in fleet held by long jobs, one more waiting.
  Json big = jgrid::test::rocm_example();
  big["gpu_type"] = "MI300X";
  big["gpu_count"] = 8;
  big["sim"] = Json{{"duration_s", 36000}};
  std::vector<std::string> holders;
  bool saw_waiting = false;
  for (int i = 0; i < 8 && !saw_waiting; ++i) {
    auto reply = server.post("/v1/jobs", big);
    REQUIRE((reply.status == 202 || reply.status == 503));
    if (reply.status == 503) break;
    auto id = reply.json.at("job_id").get<std::string>();
    // Placed, or waiting for capacity (a job passes through queued on its way).
    auto waiting = [](const Json& j) {
      return j["status"] == "queued" && j.contains("delay_reason") && j["delay_reason"].is_object() &&
             j["delay_reason"].value("code", "") == "CAPACITY_UNAVAILABLE";
    };
    auto job = server.wait_job(id, [&](const Json& j) {
      return waiting(j) || j["status"] == "assigned" || j["status"] == "starting" || j["status"] == "running";
    });
    if (waiting(job)) {
      auto busy = scrape(server);
      CHECK(busy.value("jgrid_queue_depth") >= 1);
      CHECK(busy.value("jgrid_jobs{status=\"queued\"}") >= 1);
      CHECK(busy.value("jgrid_node_gpus_free{vendor=\"amd\"}") < idle.value("jgrid_node_gpus_free{vendor=\"amd\"}"));
      CHECK(busy.value("jgrid_jobs{status=\"running\"}") + busy.value("jgrid_jobs{status=\"starting\"}") +
                busy.value("jgrid_jobs{status=\"assigned\"}") ==
            static_cast<double>(holders.size()));
      saw_waiting = true;
    }
    holders.push_back(id);
  }
  REQUIRE(saw_waiting);
  // The waiting job first, so it is not placed while the others end.
  for (auto it = holders.rbegin(); it != holders.rend(); ++it)
    REQUIRE(server.post("/v1/jobs/" + *it + "/cancel", Json::object()).status == 200);
  for (const auto& id : holders) server.wait_terminal(id);
  auto after = scrape(server);
  CHECK(after.value("jgrid_queue_depth") == 0);
  CHECK(after.value("jgrid_jobs{status=\"cancelled\"}") == static_cast<double>(holders.size()));
  CHECK(after.value("jgrid_node_gpus_free{vendor=\"amd\"}") == idle.value("jgrid_node_gpus_free{vendor=\"amd\"}"));
}

TEST_CASE("api /metrics counts open SSE subscribers", "[api][metrics]") {
  TestServer server;
  std::string seen;
  // The whole-server feed stays open; the check runs while it is.
  std::thread reader([&] {
    server.read_stream("/v1/events", {{"Accept", "text/event-stream"}}, [&](const std::string&) {
      for (int i = 0; i < 100; ++i) {
        auto now = parse(server.get("/metrics").body);
        if (now.value("jgrid_sse_subscribers{stream=\"events\"}") >= 1) {
          seen = "yes";
          return true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
      return true;
    });
  });
  // The feed sends only new events: make one so the reader's callback runs.
  server.submit(jgrid::test::rocm_example());
  reader.join();
  CHECK(seen == "yes");
}
