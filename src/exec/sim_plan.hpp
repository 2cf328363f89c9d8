#pragma once
// The plan of one simulated run: timings, output lines, outcome and
// artifacts, derived from the job, its node and its behaviour. Pure: no clock,
// no I/O; the same request and seed give the same plan.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "exec/sim_behaviour.hpp"
#include "jgrid/exec/executor.hpp"
#include "jgrid/exec/sim_executor.hpp"

namespace jgrid::exec {

struct OutputLine {
  std::int64_t offset_ms = 0;  // after job.running
  std::string stream;          // stdout | stderr
  std::string text;
};

struct RunPlan {
  std::int64_t provision_ms = 0;
  bool fail_start = false;
  bool pull_fails = false;                       // the image pull fails (outcome says so)
  std::optional<std::int64_t> interrupt_ms;      // after job.running: the node cuts the run short
  RunOutcome interrupt;                          // the outcome then
  std::int64_t run_ms = 0;                       // job.running to the end
  std::vector<OutputLine> lines;                 // by offset, all before run_ms
  RunOutcome outcome;
  std::map<std::string, std::string> artifacts;  // relative path -> content
  std::vector<std::string> faults;               // fault rules that hit the run (ids, "pool:<name>:<effect>")
};

// The plan of `request` on its node. Randomness (provisioning time, default
// duration jitter) comes from `seed` only; the executor derives it from the
// fleet seed and the run's ordinal, so the same runs in the same order draw
// the same numbers. With SimOutput::at_end the default progress lines are
// not made (nothing else changes).
RunPlan plan_run(const RunRequest& request, const SimBehaviour& behaviour, std::uint64_t seed,
                 SimOutput output = SimOutput::live);

}  // namespace jgrid::exec
