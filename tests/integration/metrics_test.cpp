// api.md §2.11 /metrics: Prometheus text that parses, carries every series
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

TEST_CASE("api /metrics exposes every series family of api.md 2.11 with a type", "[api][metrics]") {
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
  };
  for (const auto& [name, type] : families) {
    INFO(name);
    CHECK(metrics.types[name] == type);
  }
  CHECK(metrics.value("jgrid_jobs{status=\"completed\"}") == 0);
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
