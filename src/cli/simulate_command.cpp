// `jgrid-local simulate`: runs a trace of submissions against a fleet on a
// virtual clock, with no HTTP server, and prints a summary. The same fleet,
// trace and seed print the same summary and digest every time. With
// --sweep, the same trace and seed run once per point of a grid of fleet
// settings, one row each; --report writes an HTML page of the runs.
// Everything given is checked before the first run.
#include <chrono>
#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "jgrid/exec/fleet_document.hpp"
#include "sim_metric.hpp"
#include "sim_report.hpp"
#include "sim_run.hpp"
#include "sim_series.hpp"
#include "sim_summary.hpp"
#include "sim_sweep.hpp"
#include "sim_table.hpp"
#include "trace.hpp"

namespace jgrid::cli {
namespace {

struct SimulateOptions {
  std::vector<std::string> fleet;
  std::string trace;
  bool json = false;
  std::string events;
  std::optional<std::uint64_t> seed;
  int max_attempts = 2;
  std::vector<std::string> sweep;
  std::string report;
  std::string report_metric;
};

// What the runs need, all checked.
struct Plan {
  exec::FleetDocument document;
  Trace trace;
  std::vector<std::string> paths;  // swept, in --sweep order
  std::vector<SweepPoint> points;  // one empty point without --sweep
  std::string metric;
};

int simulate_failed(int code, const std::string& message) {
  std::cerr << "jgrid-local simulate: " << message << "\n";
  return code;
}

bool sweeps_seed(const SweepPoint& point) {
  return std::any_of(point.begin(), point.end(), [](const auto& setting) { return setting.first == "seed"; });
}

// The fleet of one point: the document with the point applied; --seed
// unless the point sets the seed itself.
Result<exec::Fleet> point_fleet(const Plan& plan, const SweepPoint& point, const SimulateOptions& o) {
  auto document = apply_point(plan.document, point);
  if (!document) return document.error();
  auto fleet = exec::build_fleet(*document);
  if (!fleet) return point.empty() ? fleet.error()
                                   : make_error("INVALID_SWEEP", "--sweep " + point_text(point) + ": " +
                                                                     fleet.error().message);
  if (o.seed && !sweeps_seed(point)) fleet->seed = *o.seed;
  return fleet;
}

Result<std::vector<SweepPoint>> read_sweep(const SimulateOptions& o, Plan& plan) {
  std::vector<SweepAxis> axes;
  for (const auto& text : o.sweep) {
    auto axis = parse_sweep_axis(text);
    if (!axis) return axis.error();
    plan.paths.push_back(axis->path);
    axes.push_back(std::move(*axis));
  }
  return sweep_points(axes);
}

// Every point's fleet is built once here (and dropped), so a bad value
// stops the command before the first run.
Status check_points(const Plan& plan, const SimulateOptions& o) {
  for (const auto& point : plan.points)
    if (auto fleet = point_fleet(plan, point, o); !fleet) return fleet.error();
  return Ok{};
}

Status check_options(const SimulateOptions& o) {
  if (o.max_attempts < 1) return make_error("USAGE", "--max-attempts: expected an integer >= 1");
  if (!o.sweep.empty() && !o.events.empty())
    return make_error("USAGE", "--events: not with --sweep (run the one point without --sweep to get its events)");
  return Ok{};
}

Result<Plan> make_plan(const SimulateOptions& o) {
  Plan plan;
  if (auto checked = check_options(o); !checked) return checked.error();
  auto document = exec::read_fleet_document(o.fleet);
  if (!document) return make_error("INVALID_FLEET", "--fleet: " + document.error().message);
  plan.document = std::move(*document);
  auto trace = Trace::load(o.trace);
  if (!trace) return make_error("INVALID_TRACE", "--trace: " + trace.error().message);
  plan.trace = std::move(*trace);
  auto points = read_sweep(o, plan);
  if (!points) return points.error();
  plan.points = std::move(*points);
  auto base = point_fleet(plan, {}, o);
  if (!base) return make_error("INVALID_FLEET", "--fleet: " + base.error().message);
  if (auto checked = check_points(plan, o); !checked) return checked.error();
  plan.metric = o.report_metric.empty() ? default_metric(*base) : o.report_metric;
  if (auto checked = check_metric(plan.metric, *base); !checked) return checked.error();
  return std::move(plan);
}

// One run: its --json summary (with the point, when swept).
Result<nlohmann::json> run_point(const Plan& plan, const SweepPoint& point, const SimulateOptions& o,
                                 EventsFile* events, SimReport* report) {
  auto fleet = point_fleet(plan, point, o);
  if (!fleet) return fleet.error();
  SimSummary summary(*fleet);
  SimSeries series(*fleet);
  std::vector<SimObserver*> observers{&summary};
  if (events) observers.push_back(events);
  if (report) observers.push_back(&series);
  auto run = run_simulation(*fleet, plan.trace, SimRunOptions{o.max_attempts}, observers);
  if (!run) return run.error();
  nlohmann::json body = summary.to_json();
  body["refused_at_submit"] = run->refused_at_submit;
  body["seed"] = fleet->seed;
  body["digest"] = run->digest;
  if (!o.sweep.empty()) body["point"] = point_json(point);
  if (report) report->add_point(point, body, summary, series);
  return body;
}

std::string report_title(const SimulateOptions& o, const Plan& plan) {
  std::string fleets;
  for (const auto& source : plan.document.sources)
    if (!source.builtin) fleets += (fleets.empty() ? "" : " + ") + std::filesystem::path(source.name).filename().string();
  return "trace " + std::filesystem::path(o.trace).filename().string() + " (" + std::to_string(plan.trace.size()) +
         " submissions) on " + (fleets.empty() ? "no fleet" : fleets) + ", " + std::to_string(plan.points.size()) +
         (plan.points.size() == 1 ? " run" : " runs");
}

void print_results(const SimulateOptions& o, const Plan& plan, const nlohmann::json& results) {
  if (o.sweep.empty()) std::cout << (o.json ? results[0].dump(2) + "\n" : summary_text(results[0]));
  else std::cout << (o.json ? results.dump(2) + "\n" : sweep_table(results, plan.paths));
}

int run_plan(const SimulateOptions& o, const Plan& plan, EventsFile* events, SimReport* report) {
  auto wall_start = std::chrono::steady_clock::now();
  nlohmann::json results = nlohmann::json::array();
  for (std::size_t i = 0; i < plan.points.size(); ++i) {
    auto body = run_point(plan, plan.points[i], o, events, report);
    if (!body) return simulate_failed(k_exit_runtime, body.error().message);
    results.push_back(std::move(*body));
    if (!o.sweep.empty())
      std::cerr << "point " << i + 1 << "/" << plan.points.size() << ": " << point_text(plan.points[i]) << "\n";
  }
  print_results(o, plan, results);
  if (report)
    if (auto written = report->write(); !written) return simulate_failed(k_exit_runtime, written.error().message);
  double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  double runs = static_cast<double>(plan.trace.size() * plan.points.size());
  std::cerr << "simulated " << plan.trace.size() << " submissions" << (o.sweep.empty() ? "" : " per point") << " in "
            << wall_s << " s wall (" << static_cast<long long>(runs / std::max(wall_s, 1e-9)) << " jobs/s)\n";
  return 0;
}

int simulate(const SimulateOptions& o) {
  auto plan = make_plan(o);
  if (!plan) return simulate_failed(k_exit_usage, plan.error().message);
  EventsFile events;
  if (!o.events.empty())
    if (auto opened = events.open(o.events); !opened) return simulate_failed(k_exit_usage, opened.error().message);
  SimReport report(plan->paths, plan->metric, report_title(o, *plan));
  if (!o.report.empty())
    if (auto opened = report.open(o.report); !opened) return simulate_failed(k_exit_usage, opened.error().message);
  return run_plan(o, *plan, o.events.empty() ? nullptr : &events, o.report.empty() ? nullptr : &report);
}

}  // namespace

Runner add_simulate_command(CLI::App& app) {
  auto* command = app.add_subcommand("simulate", "Run a trace of submissions on a simulated fleet, virtual clock, no server");
  command->footer(
      "A sweep runs the same trace and seed once per point and prints one row per point:\n"
      "  jgrid-local simulate --fleet examples/fleets/mixed-cloud.yaml --trace examples/traces/mi300x-burst.jsonl \\\n"
      "      --sweep pools.mi300x-east.count=6..10 --report sweep.html\n"
      "Sweepable settings: " + exec::sweepable_settings() + ".\n"
      "Pools and images are named by name (or index); several --sweep make a grid (at most 1000 points).");
  auto o = std::make_shared<SimulateOptions>();
  command->add_option("--fleet", o->fleet, "Fleet file (YAML or JSON; repeatable; default: built-in fleet)");
  command->add_option("--trace", o->trace, "JSON Lines: {\"at_s\": s, \"job\": {submit body}, \"cancel_at_s\"?}")
      ->required();
  command->add_flag("--json", o->json, "Print the summary as JSON (with --sweep: an array, one object per point)");
  command->add_option("--events", o->events, "Write the event log here (JSON Lines; not with --sweep)");
  command->add_option("--seed", o->seed, "Seed of every random draw (default: the fleet's)");
  command->add_option("--max-attempts", o->max_attempts, "Placements per job before a lost node fails it")
      ->capture_default_str();
  command->add_option("--sweep", o->sweep,
                      "PATH=VALUES: run once per value of a fleet setting, e.g. pools.mi300x-east.count=2,4,8 or "
                      "=6..10 (repeatable: a grid)");
  command->add_option("--report", o->report, "Write a self-contained HTML report (charts) to this file");
  command->add_option("--report-metric", o->report_metric,
                      "Summary number the report draws against the swept value, e.g. \"queue_wait_s.AMD MI300X.p95\", "
                      "cost_usd, retries (default: p95 queue wait of the largest GPU model)");
  return [o] { return simulate(*o); };
}

}  // namespace jgrid::cli
