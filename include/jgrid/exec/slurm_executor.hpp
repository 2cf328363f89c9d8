#pragma once
// The Slurm executor: a job placed on a Slurm node runs as one Slurm batch
// job, whose script starts the job's image with podman or docker on the
// compute node, with the GPUs Slurm assigned. Slurm does the queueing,
// accounting and node health; the grid keeps screening, routing and the job
// API in front of it.
//
// A run: the batch script and `sbatch` (job name jgrid-<job_id>,
// --nodelist, --partition, --gres=gpu:<type>:<n>, --time from the job's
// timeout, --no-requeue) → scheduler_job_id() and job.provisioning
// {slurm_job_id} → held() while Slurm keeps it PENDING with a reason →
// job.container_starting once the script starts on the node (it leaves a
// `started` marker first thing) → job.running once the container exists →
// output from the container's log file (podman's
// k8s-file on the shared data dir, read as it grows; with docker, the
// container's stdout and stderr files) → Slurm's end state and exit code
// (exec::slurm_outcome) → finished(). One tracker thread polls `squeue` for
// every run: every `poll` while some run's script has not started, every
// `started_poll` once all have (their markers say when the container runs
// and exits; only ends Slurm causes wait for squeue). Another reads `sinfo`
// and reports node state and the GPUs other users hold to the engine
// (watch_nodes()).
// Cancel → `scancel`; the script's trap stops and removes the container.
// After a restart, reattach() finds the Slurm job by its stored id (else by
// its name) and follows it again; one Slurm no longer knows ends NODE_LOST.
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "jgrid/exec/executor.hpp"
#include "jgrid/exec/slurm_nodes.hpp"
#include "jgrid/util/clock.hpp"

namespace jgrid::exec {

// The fleet file's `slurm` section and `serve --slurm*` options.
struct SlurmOptions {
  std::vector<std::string> partitions;    // empty: every partition
  std::string engine = "podman";          // on the compute nodes: "podman" | "docker"
  std::vector<std::string> engine_args;   // placed right after `run`
  SlurmGpuTypes gpu_types;                // added to the built-in table
  bool gpu_optional = false;              // no GPU device on the node: run without (test clusters)
  int render_node_base = 128;             // Slurm GPU index i is /dev/dri/renderD<base + i>
  std::chrono::milliseconds poll{250};    // squeue interval while a run's script has not started
  std::chrono::milliseconds started_poll{5000};  // squeue interval once every run's script has started
  std::chrono::milliseconds node_refresh{2000};  // sinfo interval
  std::string region = "slurm";
  double price_per_gpu_hour = 0;
  int stop_grace_seconds = 10;            // `stop -t` when Slurm cancels or times the job out
  std::filesystem::path data_dir;         // must be mounted at the same path on every compute node
};

// The nodes of the cluster in the chosen partitions, with the options'
// region and price. Errors SLURM_UNAVAILABLE (sinfo cannot be run or
// fails; the message says what to install or set), INVALID_SLURM_OUTPUT.
Result<std::vector<SlurmNode>> read_slurm_nodes(const SlurmOptions& options);

// Writes a file into the data dir and asks one usable node of each
// partition (through `srun --immediate`) whether it sees it. Error
// DATA_DIR_NOT_SHARED naming the node and the path when one does not;
// a partition that cannot run the check now (no free node) is skipped
// with its name in `skipped`.
Status check_shared_data_dir(const SlurmOptions& options, const std::vector<SlurmNode>& nodes,
                             std::vector<std::string>& skipped);

// Thread-safe. kind() is "slurm"; outlives_server() and queues_runs() are true.
std::shared_ptr<Executor> make_slurm_executor(SlurmOptions options, std::vector<SlurmNode> nodes,
                                              std::shared_ptr<util::Clock> clock);

}  // namespace jgrid::exec
