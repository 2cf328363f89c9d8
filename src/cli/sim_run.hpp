#pragma once
// One simulated run of a trace on a fleet (virtual clock, no HTTP server),
// and the observers its results stream to: the summary, the --events file
// and the report's time series all read the same event log in the same
// order, from one place, while the run goes on. The run keeps nothing of a
// job that has ended (docs/simulation.md §5).
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "jgrid/exec/fleet.hpp"
#include "jgrid/model/event.hpp"
#include "jgrid/model/job.hpp"
#include "jgrid/util/result.hpp"
#include "trace.hpp"

namespace jgrid::cli {

// Receives one run's results: begin(), then every event in seq order (so in
// clock order) and every job's final document as it ends, then end().
// begin() and end() are called on the calling thread, the rest on the run's
// store thread, one call at a time.
class SimObserver {
 public:
  virtual ~SimObserver() = default;
  virtual void begin(std::int64_t start_ms) = 0;
  virtual void add_event(const model::Event& event) = 0;
  virtual void add_job(const model::Job&) {}
  virtual void end(std::int64_t end_ms) = 0;
};

struct SimRunOptions {
  int max_attempts = 2;  // placements per job before a lost node fails it
};

struct SimRunResult {
  std::int64_t start_ms = 0, end_ms = 0;  // virtual clock at start and when idle
  std::string digest;                     // the event log digest
  long long refused_at_submit = 0;        // trace entries the engine refused
};

// Runs `trace` on `fleet` until the clock is idle, then feeds `observers`.
// Error (code of the failing part) when the store or engine cannot start.
// The fleet must outlive the call; observers may keep references to it.
Result<SimRunResult> run_simulation(const exec::Fleet& fleet, const Trace& trace,
                                    const SimRunOptions& options, const std::vector<SimObserver*>& observers);

// Writes each event as its API object, one JSON line each, to a file.
// The file is opened by open(); the observer writes nothing before.
class EventsFile : public SimObserver {
 public:
  // Error IO_ERROR "--events: cannot write <path>".
  Status open(const std::string& path);
  void begin(std::int64_t) override {}
  void add_event(const model::Event& event) override;
  void end(std::int64_t) override;

 private:
  std::ofstream m_out;
};

}  // namespace jgrid::cli
