#pragma once
// When the Slurm executor asks squeue. Pure: the tracker and the node
// watcher decide with these, tests check them without a cluster.
#include <chrono>
#include <cstddef>

#include "jgrid/exec/slurm_executor.hpp"

namespace jgrid::exec {

using SteadyTime = std::chrono::steady_clock::time_point;

// When the tracker next runs squeue, given when it last did (a default
// time point: never) and how many tracked runs' scripts have not left their
// `started` marker yet. While one has not, `last + options.poll`: its
// pending reason, its launch and an end before it starts are Slurm's news.
// Once all have, `last + options.started_poll`: the markers tell when each
// container runs and exits, and squeue is left only ends Slurm causes
// (time limit, node failure, a cancel from outside), seen that much later.
SteadyTime next_squeue_at(SteadyTime last, std::size_t runs_not_started, const SlurmOptions& options);

// Whether squeue rows read at `read_at` are recent enough at `now` for the
// node watcher to use instead of running squeue itself: younger than two
// fast polls, as they are while the tracker polls every options.poll.
bool squeue_rows_fresh(SteadyTime read_at, SteadyTime now, const SlurmOptions& options);

}  // namespace jgrid::exec
