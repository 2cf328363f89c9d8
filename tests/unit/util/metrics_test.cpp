#include "jgrid/util/metrics.hpp"

#include <catch2/catch.hpp>

using namespace jgrid::util;

TEST_CASE("util::MetricFamily renders counters with labels in the text format", "[util]") {
  MetricFamily family("t_requests_total", MetricType::counter, "Requests.", {});
  family.add({{"route", "/v1/jobs"}, {"code", "202"}});
  family.add({{"route", "/v1/jobs"}, {"code", "202"}}, 2);
  family.add({{"route", "a\"b"}});
  std::string text = family.render();
  CHECK(text.find("# HELP t_requests_total Requests.\n# TYPE t_requests_total counter\n") == 0);
  CHECK(text.find("t_requests_total{route=\"/v1/jobs\",code=\"202\"} 3\n") != std::string::npos);
  CHECK(text.find("t_requests_total{route=\"a\\\"b\"} 1\n") != std::string::npos);
}

TEST_CASE("util::MetricFamily histograms are cumulative with +Inf, sum and count", "[util]") {
  MetricFamily family("t_seconds", MetricType::histogram, "Latency.", {0.1, 1});
  family.observe({}, 0.05);
  family.observe({}, 0.5);
  family.observe({}, 5);
  std::string text = family.render();
  CHECK(text.find("t_seconds_bucket{le=\"0.1\"} 1\n") != std::string::npos);
  CHECK(text.find("t_seconds_bucket{le=\"1\"} 2\n") != std::string::npos);
  CHECK(text.find("t_seconds_bucket{le=\"+Inf\"} 3\n") != std::string::npos);
  CHECK(text.find("t_seconds_sum 5.55\n") != std::string::npos);
  CHECK(text.find("t_seconds_count 3\n") != std::string::npos);
}

TEST_CASE("util::Metrics returns the same family by name and gauges can be set", "[util]") {
  Metrics registry;
  auto& a = registry.family("t_gauge", MetricType::gauge, "A gauge.");
  auto& b = registry.family("t_gauge", MetricType::gauge, "ignored");
  CHECK(&a == &b);
  a.set({{"vendor", "amd"}}, 7);
  a.add({{"vendor", "amd"}}, -2);
  CHECK(registry.render().find("t_gauge{vendor=\"amd\"} 5\n") != std::string::npos);
}

TEST_CASE("util::MetricFamily::declare shows a series at zero and keeps an existing one", "[util]") {
  MetricFamily histogram("d_seconds", MetricType::histogram, "Latency.", {0.1});
  histogram.declare({});
  std::string text = histogram.render();
  CHECK(text.find("d_seconds_bucket{le=\"+Inf\"} 0\n") != std::string::npos);
  CHECK(text.find("d_seconds_count 0\n") != std::string::npos);
  MetricFamily counter("d_total", MetricType::counter, "Count.", {});
  counter.add({{"result", "ok"}}, 2);
  counter.declare({{"result", "ok"}});
  counter.declare({{"result", "bad"}});
  text = counter.render();
  CHECK(text.find("d_total{result=\"ok\"} 2\n") != std::string::npos);
  CHECK(text.find("d_total{result=\"bad\"} 0\n") != std::string::npos);
}

TEST_CASE("util::MetricFamily::Handle counts into the series of its labels, with add() by labels", "[util]") {
  MetricFamily counter("t_routes_total", MetricType::counter, "Routes.", {});
  auto placed = counter.handle({{"result", "placed"}});
  counter.handle({{"result", "waiting"}});  // declared at zero
  placed.add();
  placed.add(2);
  counter.add({{"result", "placed"}});
  std::string text = counter.render();
  CHECK(text.find("t_routes_total{result=\"placed\"} 4\n") != std::string::npos);
  CHECK(text.find("t_routes_total{result=\"waiting\"} 0\n") != std::string::npos);

  MetricFamily histogram("t_route_seconds", MetricType::histogram, "Latency.", {0.1, 1});
  auto latency = histogram.handle({});
  latency.observe(0.05);
  histogram.observe({}, 5);
  text = histogram.render();
  CHECK(text.find("t_route_seconds_bucket{le=\"0.1\"} 1\n") != std::string::npos);
  CHECK(text.find("t_route_seconds_bucket{le=\"+Inf\"} 2\n") != std::string::npos);
  CHECK(text.find("t_route_seconds_count 2\n") != std::string::npos);
}
