#pragma once
// What Slurm's job states and reasons mean to the job API. Pure and
// thread-safe; the Slurm executor feeds it what `squeue --json` and
// `scontrol show job` report.
#include <optional>
#include <string>

#include "jgrid/exec/executor.hpp"

namespace jgrid::exec {

// Slurm's "exit:signal" (`ExitCode=3:0`): the workload's exit status, or
// 128 + the signal when a signal ended it; nullopt when the text is not that.
std::optional<int> slurm_exit_code(const std::string& exit_signal);

// True while Slurm still owns the job (PENDING, CONFIGURING, RUNNING,
// COMPLETING, REQUEUED, RESIZING, SUSPENDED): no outcome yet.
bool slurm_job_active(const std::string& state);

// True while the batch job holds its node (CONFIGURING, RUNNING,
// COMPLETING): its GPUs are allocated to it.
bool slurm_job_on_node(const std::string& state);

// The end of a run from a final Slurm state and its "exit:signal":
//   COMPLETED       → success, or NONZERO_EXIT when the exit status is not 0
//   FAILED          → NONZERO_EXIT with the exit status
//   TIMEOUT         → TIMED_OUT (timed_out)
//   OUT_OF_MEMORY   → OOM
//   NODE_FAIL       → lost node: the engine requeues, then NODE_LOST
//   PREEMPTED       → requeued without using an attempt
//   BOOT_FAIL       → lost node, as NODE_FAIL
//   CANCELLED       → failed CANCELLED_BY_SCHEDULER (someone cancelled it in
//                     Slurm; the grid's own cancels never ask for an outcome)
//   DEADLINE        → TIMED_OUT
// Any other state → INTERNAL, naming it.
RunOutcome slurm_outcome(const std::string& state, const std::string& exit_signal, int slurm_job_id);

// The delay reason code (model::DelayReason) of a PENDING job, in the codes
// the engine already uses: Slurm's Resources/ReqNodeNotAvail/Nodes*…
// (no GPUs free for it) → CAPACITY_UNAVAILABLE; any other reason (Priority,
// Dependency, QOS limits, holds, BeginTime) → QUEUE_DELAYED, the engine's
// code for a job held in the queue; the message carries Slurm's reason.
std::string slurm_delay_code(const std::string& reason);

}  // namespace jgrid::exec
