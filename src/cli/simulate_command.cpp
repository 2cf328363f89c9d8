// `jgrid-local simulate`: runs a trace of submissions against a fleet on a
// virtual clock, with no HTTP server, and prints a summary. The same fleet,
// trace and seed print the same summary and digest every time.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "commands.hpp"
#include "jgrid/engine/engine.hpp"
#include "jgrid/exec/sim_executor.hpp"
#include "jgrid/util/ids.hpp"
#include "sim_setup.hpp"
#include "sim_summary.hpp"
#include "trace.hpp"

namespace jgrid::cli {
namespace {

namespace fs = std::filesystem;
constexpr int k_event_page = 5000;

struct SimulateOptions {
  std::vector<std::string> fleet;
  std::string trace;
  bool json = false;
  std::string events;
  std::optional<std::uint64_t> seed;
  int max_attempts = 2;
};

int simulate_failed(int code, const std::string& message) {
  std::cerr << "jgrid-local simulate: " << message << "\n";
  return code;
}

// A scratch data dir for workspaces and artifacts, removed at the end; in
// shared memory when there is some (a workspace per job is created and
// removed again, which a disk pays for).
fs::path scratch_root() {
  std::error_code ignored;
  return fs::is_directory("/dev/shm", ignored) ? fs::path("/dev/shm") : fs::temp_directory_path();
}

struct ScratchDir {
  fs::path path = scratch_root() / ("jgrid-sim-" + util::random_hex(6));
  ScratchDir() { fs::create_directories(path); }
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

// Submissions (and cancels, and fault rules) as timers of the virtual clock,
// so they take their turn with the runs in clock order.
void schedule_trace(util::Clock& clock, engine::Engine& engine, const std::vector<TraceEntry>& trace,
                    std::vector<std::string>& ids, long long& refused) {
  std::int64_t start = clock.now_ms();
  ids.resize(trace.size());
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const TraceEntry& entry = trace[i];
    clock.schedule(start + static_cast<std::int64_t>(entry.at_s * 1000.0), [&, i] {
      if (trace[i].fault) {
        if (auto* book = engine.faults()) book->add(*trace[i].fault);
        return;
      }
      auto submitted = engine.submit(engine::SubmitRequest{trace[i].spec});
      if (!submitted) return void(++refused);
      ids[i] = submitted->job.id;
      if (!trace[i].cancel_at_s) return;
      clock.schedule(start + static_cast<std::int64_t>(*trace[i].cancel_at_s * 1000.0),
                     [&, i] { (void)engine.cancel(ids[i], "local", "cancelled by the trace"); });
    });
  }
}

// Reads the whole event log in seq order into the summary (and the events file).
Status read_events(const store::Store& store, SimSummary& summary, const std::string& events_path) {
  std::ofstream events;
  if (!events_path.empty()) {
    events.open(events_path);
    if (!events) return make_error("IO_ERROR", "--events: cannot write " + events_path);
  }
  store::EventQuery query;
  query.limit = k_event_page;
  while (true) {
    auto page = store.list_events(query);
    for (const auto& event : page) {
      summary.add_event(event);
      if (events.is_open()) events << model::event_to_api(event).dump() << "\n";
    }
    if (static_cast<int>(page.size()) < k_event_page) return Ok{};
    query.after_seq = page.back().seq;
  }
}

int simulate(const SimulateOptions& o) {
  auto fleet = load_fleet(o.fleet, o.seed);
  if (!fleet) return simulate_failed(k_exit_usage, "--fleet: " + fleet.error().message);
  auto trace = load_trace(o.trace);
  if (!trace) return simulate_failed(k_exit_usage, "--trace: " + trace.error().message);
  if (o.max_attempts < 1) return simulate_failed(k_exit_usage, "--max-attempts: expected an integer >= 1");
  auto wall_start = std::chrono::steady_clock::now();

  ScratchDir scratch;
  auto store = store::Store::open(store::StoreOptions{":memory:", false});
  if (!store) return simulate_failed(k_exit_runtime, store.error().message);
  util::seed_ids(fleet->seed);  // the same ids every run: --events is byte-identical
  auto clock = util::make_virtual_clock();
  std::int64_t start_ms = clock->now_ms();
  engine::EngineOptions options;
  options.data_dir = scratch.path;
  options.max_attempts = o.max_attempts;
  options.durable_submits = false;  // the store is in memory and dies with the run
  engine::Engine engine(**store, clock, *fleet, {{"simulated", exec::make_sim_executor(clock, *fleet)}}, options);
  if (auto started = engine.start(); !started) return simulate_failed(k_exit_runtime, started.error().message);

  std::vector<std::string> ids;
  long long refused = 0;
  clock->hold();  // nothing runs until every submission is scheduled
  schedule_trace(*clock, engine, *trace, ids, refused);
  clock->release();
  clock->wait_idle();
  std::int64_t end_ms = clock->now_ms();
  std::string digest = engine.event_digest();
  engine.stop();
  (*store)->flush();

  SimSummary summary(*fleet, start_ms);
  if (auto read = read_events(**store, summary, o.events); !read) return simulate_failed(k_exit_runtime, read.error().message);
  for (const auto& id : ids)
    if (auto job = id.empty() ? std::nullopt : (*store)->get_job(id)) summary.add_job(*job);
  nlohmann::json body = summary.to_json(end_ms);
  body["refused_at_submit"] = refused;
  body["seed"] = fleet->seed;
  body["digest"] = digest;
  std::cout << (o.json ? body.dump(2) + "\n" : summary_text(body));
  double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  std::cerr << "simulated " << trace->size() << " submissions in " << wall_s << " s wall ("
            << static_cast<long long>(static_cast<double>(trace->size()) / std::max(wall_s, 1e-9)) << " jobs/s)\n";
  return 0;
}

}  // namespace

Runner add_simulate_command(CLI::App& app) {
  auto* command = app.add_subcommand("simulate", "Run a trace of submissions on a simulated fleet, virtual clock, no server");
  auto o = std::make_shared<SimulateOptions>();
  command->add_option("--fleet", o->fleet, "Fleet file (YAML or JSON; repeatable; default: built-in fleet)");
  command->add_option("--trace", o->trace, "JSON Lines: {\"at_s\": s, \"job\": {submit body}, \"cancel_at_s\"?}")
      ->required();
  command->add_flag("--json", o->json, "Print the summary as JSON");
  command->add_option("--events", o->events, "Write the event log here (JSON Lines)");
  command->add_option("--seed", o->seed, "Seed of every random draw (default: the fleet's)");
  command->add_option("--max-attempts", o->max_attempts, "Placements per job before a lost node fails it")
      ->capture_default_str();
  return [o] { return simulate(*o); };
}

}  // namespace jgrid::cli
