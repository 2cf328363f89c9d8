#pragma once
// What a run on Slurm submits: the `sbatch` arguments and the batch script.
// Pure: reads no file, runs nothing.
#include <filesystem>
#include <string>
#include <vector>

#include "jgrid/exec/executor.hpp"
#include "jgrid/exec/slurm_executor.hpp"

namespace jgrid::exec {

// Exit codes of the batch script itself (not of the workload), and what they mean.
constexpr int k_script_no_workspace = 97;  // the data dir is not mounted on the node
constexpr int k_script_no_gpu_device = 98; // an assigned GPU has no device file there
constexpr int k_script_engine_failed = 99; // `<engine> run` failed: nothing ran

// "<workspace>/slurm": the script, Slurm's output file and the markers the
// script leaves (started, running, exit).
std::filesystem::path slurm_state_dir(const std::filesystem::path& workspace_dir);
// Slurm's own output file of the script (not the workload's output).
std::filesystem::path slurm_script_output(const std::filesystem::path& workspace_dir);
// "jgrid-<job_id>": the Slurm job name and the container name.
std::string slurm_job_name(const std::string& job_id);

// Slurm's --time for a timeout in seconds: whole minutes, rounded up (Slurm
// counts time limits in minutes); "" (no --time) when there is no timeout.
std::string slurm_time_limit(double timeout_seconds);

// sbatch --parsable --job-name … --partition … --nodelist … -N1 -n1
// --gres=gpu:<type>:<n> [--time …] --no-requeue --output … --chdir … <script>.
std::vector<std::string> sbatch_argv(const RunRequest& request, const std::filesystem::path& script);

// The bash batch script: leaves `started` first (a shell builtin, no
// process: the server learns the job left PENDING without asking Slurm),
// checks the workspace is visible, finds the GPU indices Slurm assigned
// (SLURM_JOB_GPUS, else `scontrol show job -d`), turns them into device
// flags, runs the container detached with the workspace mounts and the
// job's env, marks `running` (the image digest follows in `digest`), waits
// for it, marks `exit` with its exit code, removes it and exits with that
// code. SIGTERM (scancel, time limit) stops and removes the container.
std::string batch_script(const RunRequest& request, const SlurmOptions& options);

// `text` quoted for bash: 'text' with each ' as '\''.
std::string shell_quote(const std::string& text);

}  // namespace jgrid::exec
