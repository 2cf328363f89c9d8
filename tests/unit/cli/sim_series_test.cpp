#include "cli/sim_series.hpp"

#include <catch2/catch.hpp>

using namespace jgrid;
using namespace jgrid::cli;
using Json = nlohmann::json;

namespace {

exec::Fleet two_pools() {
  exec::Fleet fleet;
  for (const char* pool : {"big", "small"}) {
    model::Node node;
    node.pool = pool;
    node.id = std::string("node_") + pool + "-1";
    node.gpu_count = 8;
    fleet.nodes.push_back(node);
  }
  return fleet;
}

model::Event series_event(const std::string& job, const std::string& type, std::int64_t at_ms, Json data = Json::object()) {
  model::Event e;
  e.job_id = job;
  e.type = type;
  e.created_ms = at_ms;
  e.data = std::move(data);
  return e;
}

Json assigned_to(const char* node, int gpus) { return Json{{"node_id", node}, {"gpu_indices", std::vector<int>(gpus, 0)}}; }

}  // namespace

TEST_CASE("sim_series samples queued jobs and running GPUs per pool at fixed times", "[cli][series]") {
  exec::Fleet fleet = two_pools();
  SimSeries series(fleet, 100, 1000);
  series.begin(10'000);
  series.add_event(series_event("a", "job.submitted", 10'000));
  series.add_event(series_event("b", "job.submitted", 10'500));
  series.add_event(series_event("a", "job.assigned", 11'500, assigned_to("node_big-1", 4)));
  series.add_event(series_event("a", "job.running", 12'000));
  series.add_event(series_event("", "node.offline", 12'200));  // a node event changes nothing
  series.add_event(series_event("a", "job.retrying", 13'000));
  series.add_event(series_event("a", "job.assigned", 13'000, assigned_to("node_small-1", 2)));
  series.add_event(series_event("a", "job.running", 13'500));
  series.add_event(series_event("b", "job.cancelled", 14'000));
  series.add_event(series_event("a", "job.completed", 15'000));
  series.end(15'200);
  Json s = series.to_json();
  CHECK(s["t_s"] == Json{0, 1, 2, 3, 4, 5, 5.2});
  // A sample at time t shows the state after the events before t (those at t included).
  CHECK(s["queued"] == Json{1, 2, 1, 1, 0, 0, 0});
  CHECK(s["running_gpus"]["big"] == Json{0, 0, 4, 0, 0, 0, 0});
  CHECK(s["running_gpus"]["small"] == Json{0, 0, 0, 0, 2, 0, 0});
  CHECK(s["interval_s"] == 1.0);
}

TEST_CASE("sim_series keeps at most max_samples by doubling the interval", "[cli][series]") {
  exec::Fleet fleet = two_pools();
  SimSeries series(fleet, 10, 1000);
  series.begin(0);
  series.add_event(series_event("a", "job.submitted", 0));
  series.add_event(series_event("a", "job.completed", 1'000'000));
  series.end(1'000'000);
  Json s = series.to_json();
  CHECK(series.samples() <= 11);
  CHECK(s["interval_s"].get<double>() >= 100.0);
  double step = s["interval_s"].get<double>();
  for (std::size_t i = 0; i + 1 < s["t_s"].size(); ++i) CHECK(s["t_s"][i].get<double>() == Approx(i * step));
  CHECK(s["t_s"].back() == 1000.0);
  CHECK(s["queued"][1] == 1);
  CHECK(s["queued"].back() == 0);
}

TEST_CASE("sim_series forgets a finished job, and its later events change nothing", "[cli][series]") {
  exec::Fleet fleet = two_pools();
  SimSeries series(fleet, 100, 1000);
  series.begin(0);
  series.add_event(series_event("a", "job.submitted", 0));
  series.add_event(series_event("b", "job.submitted", 0));
  series.add_event(series_event("a", "job.assigned", 0, assigned_to("node_big-1", 2)));
  series.add_event(series_event("a", "job.running", 0));
  CHECK(series.jobs_in_flight() == 2);
  series.add_event(series_event("a", "job.completed", 500));
  CHECK(series.jobs_in_flight() == 1);
  series.add_event(series_event("a", "job.callback_delivered", 1'500));
  series.add_event(series_event("a", "job.cancel_requested", 1'500));
  series.add_event(series_event("x", "job.rejected", 1'500));  // never accepted: nothing to draw
  CHECK(series.jobs_in_flight() == 1);
  series.end(2'000);
  Json s = series.to_json();
  CHECK(s["t_s"] == Json{0, 1, 2});
  CHECK(s["queued"] == Json{1, 1, 1});
  CHECK(s["running_gpus"]["big"] == Json{2, 0, 0});
}
