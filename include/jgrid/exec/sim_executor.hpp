#pragma once
// The simulated executor: a fake node runs a job through every phase of
// docs/simulation.md §2 with events, output lines over the run, artifacts written to the
// job's artifacts dir, and an exit. Behaviour comes from the job's `sim`
// object, else the image catalog's, else defaults from the workload.
// Thread-safe; runs its timers on one thread of its own.
#include <memory>

#include "jgrid/exec/executor.hpp"
#include "jgrid/exec/fleet.hpp"
#include "jgrid/util/clock.hpp"

namespace jgrid::exec {

// How a fake run's output reaches the sink.
enum class SimOutput {
  // Every line at its time in the run, the default progress lines included
  // (one per `stdout_every_s`): logs can be read and followed as they grow.
  live,
  // For runs whose logs nobody reads (`simulate`): no default progress
  // lines are made at all, and a run that fails hands the lines it has
  // (those its `sim` object or image names, and its failure lines) to the
  // sink in one batch as it ends, for the failure diagnosis. A run that
  // succeeds prints nothing. Events are the same as with `live`.
  at_end,
};

std::shared_ptr<Executor> make_sim_executor(std::shared_ptr<util::Clock> clock, const Fleet& fleet,
                                            SimOutput output = SimOutput::live);

}  // namespace jgrid::exec
