#include "sim_run.hpp"

#include <filesystem>

#include "jgrid/engine/engine.hpp"
#include "jgrid/exec/sim_executor.hpp"
#include "jgrid/util/ids.hpp"

namespace jgrid::cli {
namespace {

namespace fs = std::filesystem;
constexpr int k_event_page = 5000;

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

// The whole event log in seq order, page by page, to every observer.
void feed_events(const store::Store& store, const std::vector<SimObserver*>& observers) {
  store::EventQuery query;
  query.limit = k_event_page;
  while (true) {
    auto page = store.list_events(query);
    for (const auto& event : page)
      for (auto* observer : observers) observer->add_event(event);
    if (static_cast<int>(page.size()) < k_event_page) return;
    query.after_seq = page.back().seq;
  }
}

}  // namespace

Result<SimRunResult> run_simulation(const exec::Fleet& fleet, const std::vector<TraceEntry>& trace,
                                    const SimRunOptions& options, const std::vector<SimObserver*>& observers) {
  ScratchDir scratch;
  util::seed_ids(fleet.seed);  // the same ids every run: --events is byte-identical
  auto store = store::Store::open(store::StoreOptions{":memory:", false});
  if (!store) return store.error();
  auto clock = util::make_virtual_clock();
  SimRunResult result;
  result.start_ms = clock->now_ms();
  engine::EngineOptions engine_options;
  engine_options.data_dir = scratch.path;
  engine_options.max_attempts = options.max_attempts;
  engine_options.durable_submits = false;  // the store is in memory and dies with the run
  engine::Engine engine(**store, clock, fleet, {{"simulated", exec::make_sim_executor(clock, fleet)}}, engine_options);
  if (auto started = engine.start(); !started) return started.error();

  std::vector<std::string> ids;
  clock->hold();  // nothing runs until every submission is scheduled
  schedule_trace(*clock, engine, trace, ids, result.refused_at_submit);
  clock->release();
  clock->wait_idle();
  result.end_ms = clock->now_ms();
  result.digest = engine.event_digest();
  engine.stop();
  (*store)->flush();

  for (auto* observer : observers) observer->begin(result.start_ms);
  feed_events(**store, observers);
  for (const auto& id : ids)
    if (auto job = id.empty() ? std::nullopt : (*store)->get_job(id))
      for (auto* observer : observers) observer->add_job(*job);
  for (auto* observer : observers) observer->end(result.end_ms);
  return result;
}

Status EventsFile::open(const std::string& path) {
  m_out.open(path);
  if (!m_out) return make_error("IO_ERROR", "--events: cannot write " + path);
  return Ok{};
}

void EventsFile::add_event(const model::Event& event) {
  if (m_out.is_open()) m_out << model::event_to_api(event).dump() << "\n";
}

void EventsFile::end(std::int64_t) {
  if (m_out.is_open()) m_out.flush();
}

}  // namespace jgrid::cli
