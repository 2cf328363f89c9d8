#include "sim_run.hpp"

#include <filesystem>

#include "jgrid/engine/engine.hpp"
#include "jgrid/engine/event_digest.hpp"
#include "jgrid/exec/sim_executor.hpp"
#include "jgrid/store/stream_store.hpp"
#include "jgrid/util/ids.hpp"
#include "trace_prefetch.hpp"

namespace jgrid::cli {
namespace {

namespace fs = std::filesystem;

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

// Trace lines become timers of the virtual clock one at a time: each line's
// timer submits it (or adds its fault rule) and schedules the next line, so
// a trace of a million lines holds one pending timer, not a million.
// Cancels are timers of their own. The lines are decoded ahead on the
// prefetch's thread, in the same order, and their submits prepared there
// (screened): the clock's thread only commits them.
class TraceFeed {
 public:
  TraceFeed(util::Clock& clock, engine::Engine& engine, const Trace& trace)
      : m_clock(clock), m_engine(engine), m_trace(trace),
        m_prefetch(trace, [&engine](model::JobSpec spec) { return engine.prepare(engine::SubmitRequest{std::move(spec)}); }),
        m_start(clock.now_ms()) {}
  void start() { schedule(0); }
  long long refused() const { return m_refused; }

 private:
  std::int64_t due(double at_s) const { return m_start + static_cast<std::int64_t>(at_s * 1000.0); }
  void schedule(std::size_t index) {
    if (index < m_trace.size()) m_clock.schedule(due(m_trace.entries()[index].at_s), [this, index] { feed(index); });
  }
  void feed(std::size_t index) {
    const TraceEntry& entry = m_trace.entries()[index];
    schedule(index + 1);
    DecodedEntry decoded = m_prefetch.next();
    if (decoded.fault) return add_fault(std::move(*decoded.fault));
    auto& prepared = *decoded.job;
    if (!prepared) return void(++m_refused);
    auto submitted = m_engine.submit_prepared(std::move(*prepared));
    if (!submitted) return void(++m_refused);
    if (!entry.cancel_at_s) return;
    m_clock.schedule(due(*entry.cancel_at_s), [this, id = submitted->job.id] {
      (void)m_engine.cancel(id, "local", "cancelled by the trace");
    });
  }
  void add_fault(Result<exec::FaultRule> rule) {
    auto* book = m_engine.faults();
    if (rule && book) book->add(std::move(*rule));
  }

  util::Clock& m_clock;
  engine::Engine& m_engine;
  const Trace& m_trace;
  TracePrefetch m_prefetch;
  std::int64_t m_start;
  long long m_refused = 0;
};

// Each batch the engine writes, in event seq order, to the digest and every
// observer: its events, and the final documents of the jobs that ended in it.
void observe(const store::WriteBatch& batch, engine::EventDigest& digest, const std::vector<SimObserver*>& observers) {
  for (const auto& event : batch.events) {
    digest.add(event);
    for (auto* observer : observers) observer->add_event(event);
  }
  for (const auto& job : batch.jobs)
    if (model::is_terminal(job.status))
      for (auto* observer : observers) observer->add_job(job);
}

}  // namespace

// The store keeps nothing and the fake nodes make no output that nobody
// reads (exec::SimOutput::at_end): memory follows the jobs in flight, not
// the jobs run.
Result<SimRunResult> run_simulation(const exec::Fleet& fleet, const Trace& trace, const SimRunOptions& options,
                                    const std::vector<SimObserver*>& observers) {
  ScratchDir scratch;
  util::seed_ids(fleet.seed);  // the same ids every run: --events is byte-identical
  auto clock = util::make_virtual_clock();
  SimRunResult result;
  result.start_ms = clock->now_ms();
  for (auto* observer : observers) observer->begin(result.start_ms);
  // The event digest is taken here, on the store's thread, rather than by
  // the engine on the clock's: the same lines in the same (seq) order.
  engine::EventDigest digest;
  auto store = store::make_stream_store(
      [&digest, &observers](const store::WriteBatch& batch) { observe(batch, digest, observers); });
  engine::EngineOptions engine_options;
  engine_options.data_dir = scratch.path;
  engine_options.max_attempts = options.max_attempts;
  engine_options.durable_submits = false;  // the store keeps nothing to wait for
  engine_options.keep_event_digest = false;
  engine::Engine engine(*store, clock, fleet,
                        {{"simulated", exec::make_sim_executor(clock, fleet, exec::SimOutput::at_end)}}, engine_options);
  if (auto started = engine.start(); !started) return started.error();

  TraceFeed feed(*clock, engine, trace);
  feed.start();
  clock->wait_idle();
  result.end_ms = clock->now_ms();
  result.refused_at_submit = feed.refused();
  engine.stop();
  store->flush();
  result.digest = digest.hex();
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
