#include "engine_metrics.hpp"

#include "jgrid/util/metrics.hpp"

namespace jgrid::engine {
namespace {

using util::MetricType;

util::MetricFamily& family(const char* name, MetricType type, const char* help) {
  return util::metrics().family(name, type, help,
                                type == MetricType::histogram ? util::latency_buckets() : std::vector<double>{});
}

}  // namespace

void record_screening(const screen::Screening& screening, double seconds) {
  static auto& total = family("jgrid_screen_total", MetricType::counter,
                              "Screenings (submit and estimate) by result: passed, warned, blocked.");
  static auto& latency = family("jgrid_screen_duration_seconds", MetricType::histogram, "Time to screen a request.");
  const char* result = screening.blocked() ? "blocked" : screening.warnings().empty() ? "passed" : "warned";
  total.add({{"result", result}});
  latency.observe({}, seconds);
}

void record_route(bool placed, double seconds) {
  static auto& total = family("jgrid_route_total", MetricType::counter,
                              "Routing decisions of the scheduler by result: placed, waiting (no free capacity).");
  static auto& latency = family("jgrid_route_duration_seconds", MetricType::histogram, "Time to route one job.");
  total.add({{"result", placed ? "placed" : "waiting"}});
  latency.observe({}, seconds);
}

}  // namespace jgrid::engine
