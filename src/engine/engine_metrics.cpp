#include "engine_metrics.hpp"

#include "jgrid/util/metrics.hpp"

namespace jgrid::engine {
namespace {

using util::MetricType;

util::MetricFamily& family(const char* name, MetricType type, const char* help) {
  return util::metrics().family(name, type, help,
                                type == MetricType::histogram ? util::latency_buckets() : std::vector<double>{});
}

util::MetricFamily& screen_total() {
  static auto& total = family("jgrid_screen_total", MetricType::counter,
                              "Screenings (submit and estimate) by result: passed, warned, blocked.");
  return total;
}
util::MetricFamily& screen_latency() {
  static auto& latency = family("jgrid_screen_duration_seconds", MetricType::histogram, "Time to screen a request.");
  return latency;
}
util::MetricFamily& route_total() {
  static auto& total = family("jgrid_route_total", MetricType::counter,
                              "Routing decisions of the scheduler by result: placed, waiting (no free capacity).");
  return total;
}
util::MetricFamily& route_latency() {
  static auto& latency = family("jgrid_route_duration_seconds", MetricType::histogram, "Time to route one job.");
  return latency;
}
util::MetricFamily& callback_total() {
  static auto& total = family("jgrid_callback_deliveries_total", MetricType::counter,
                              "Callback delivery attempts by result: delivered (2xx), retried (failed, another "
                              "attempt follows), failed (the last attempt failed).");
  return total;
}

}  // namespace

void declare_engine_metrics() {
  for (const char* result : {"passed", "warned", "blocked"}) screen_total().declare({{"result", result}});
  for (const char* result : {"placed", "waiting"}) route_total().declare({{"result", result}});
  for (const char* result : {"delivered", "retried", "failed"}) callback_total().declare({{"result", result}});
  screen_latency().declare({});
  route_latency().declare({});
}

// Every submit is screened and every scheduled job routed: their series
// are found once.
void record_screening(const screen::Screening& screening, double seconds) {
  static util::MetricFamily::Handle passed = screen_total().handle({{"result", "passed"}}),
                                    warned = screen_total().handle({{"result", "warned"}}),
                                    blocked = screen_total().handle({{"result", "blocked"}}),
                                    latency = screen_latency().handle({});
  (screening.blocked() ? blocked : screening.warnings().empty() ? passed : warned).add();
  latency.observe(seconds);
}

void record_route(bool placed, double seconds) {
  static util::MetricFamily::Handle placed_total = route_total().handle({{"result", "placed"}}),
                                    waiting_total = route_total().handle({{"result", "waiting"}}),
                                    latency = route_latency().handle({});
  (placed ? placed_total : waiting_total).add();
  latency.observe(seconds);
}

}  // namespace jgrid::engine

namespace jgrid::engine {

void record_callback(const char* result) { callback_total().add({{"result", result}}); }

}  // namespace jgrid::engine
