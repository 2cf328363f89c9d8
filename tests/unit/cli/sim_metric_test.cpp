#include "cli/sim_metric.hpp"

#include <catch2/catch.hpp>

#include "jgrid/exec/fleet.hpp"

using namespace jgrid;
using namespace jgrid::cli;
using Json = nlohmann::json;

namespace {

exec::Fleet mixed_cloud_fleet() {
  auto fleet = exec::load_fleet_files({std::string(JGRID_SOURCE_DIR) + "/examples/fleets/mixed-cloud.yaml"});
  REQUIRE(fleet.ok());
  return fleet.value();
}

}  // namespace

TEST_CASE("sim_metric::default_metric is the p95 wait of the GPU with the most VRAM", "[cli][metric]") {
  CHECK(default_metric(mixed_cloud_fleet()) == "queue_wait_s.AMD MI300X.p95");
  CHECK(default_metric(exec::Fleet{}) == "cost_usd");
}

TEST_CASE("sim_metric::check_metric accepts summary numbers of this fleet", "[cli][metric]") {
  exec::Fleet fleet = mixed_cloud_fleet();
  for (const char* metric : {"cost_usd", "retries", "jobs", "simulated_seconds", "by_status.completed",
                             "failure_codes.NODE_LOST", "queue_wait_s.NVIDIA H100.p99",
                             "gpu_utilisation.w7900-west.utilisation"})
    CHECK(check_metric(metric, fleet).ok());
}

TEST_CASE("sim_metric::check_metric names what was expected", "[cli][metric]") {
  exec::Fleet fleet = mixed_cloud_fleet();
  auto message = [&](const std::string& metric) {
    auto checked = check_metric(metric, fleet);
    REQUIRE_FALSE(checked.ok());
    CHECK(checked.error().code == "INVALID_METRIC");
    return checked.error().message;
  };
  CHECK_THAT(message("cost"), Catch::StartsWith("--report-metric cost: expected one of jobs, retries, cost_usd"));
  CHECK(message("queue_wait_s.AMD MI325X.p95") ==
        "--report-metric queue_wait_s.AMD MI325X.p95: expected a GPU model of the fleet (AMD MI300X, AMD MI250, "
        "AMD Radeon PRO W7900, NVIDIA H100, NVIDIA L4)");
  CHECK_THAT(message("queue_wait_s.AMD MI300X.p90"), Catch::Contains("expected one of"));
  CHECK_THAT(message("gpu_utilisation.nope.utilisation"), Catch::Contains("a pool of the fleet (mi300x-east,"));
  CHECK_THAT(message("by_status.done"), Catch::Contains("a job status"));
}

TEST_CASE("sim_metric::metric_value reads the summary; absent counts are 0, absent waits null", "[cli][metric]") {
  Json summary = {{"cost_usd", 12.5},
                  {"by_status", {{"completed", 3}}},
                  {"queue_wait_s", {{"AMD MI300X", {{"p95", 610.5}}}}},
                  {"gpu_utilisation", {{"p.q", {{"utilisation", 0.25}}}}}};
  CHECK(metric_value(summary, "cost_usd") == 12.5);
  CHECK(metric_value(summary, "by_status.completed") == 3);
  CHECK(metric_value(summary, "by_status.failed") == 0);
  CHECK(metric_value(summary, "queue_wait_s.AMD MI300X.p95") == 610.5);
  CHECK(metric_value(summary, "queue_wait_s.NVIDIA H100.p95").is_null());
  CHECK(metric_value(summary, "gpu_utilisation.p.q.utilisation") == 0.25);
}
