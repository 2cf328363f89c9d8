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

std::shared_ptr<Executor> make_sim_executor(std::shared_ptr<util::Clock> clock, const Fleet& fleet);

}  // namespace jgrid::exec
