#pragma once
// The Slurm adapter: the one place that runs Slurm's command-line tools
// (sinfo, squeue, sbatch, scancel, scontrol, srun), as argv vectors through
// container_process.hpp, never a shell. Each call says what failed and how
// to fix it. Thread-safe. Parsing of what the tools print is pure and
// tested on its own.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "jgrid/util/result.hpp"

namespace jgrid::exec {

// One line of squeue about one job.
struct SlurmJobRow {
  std::string id;      // "123"
  std::string name;    // "jgrid-job_…"
  std::string state;   // "PENDING", "RUNNING", "COMPLETED", … (one word: "CANCELLED by 0" → "CANCELLED")
  std::string reason;  // "Resources", "None", …
  std::string nodes;   // "n1" ("" while pending)
  std::string exit;    // "exit:signal" ("3:0")
};

// The squeue --Format the rows are read from.
std::string squeue_format();
// Rows of squeue printed with squeue_format(); lines that are not rows are skipped.
std::vector<SlurmJobRow> parse_squeue_rows(const std::string& text);
// What `scontrol show job -o <id>` says: JobState, Reason, ExitCode, NodeList.
std::optional<SlurmJobRow> parse_scontrol_job(const std::string& text);

// `sinfo --json`. Error SLURM_UNAVAILABLE.
Result<std::string> slurm_sinfo_json();
// Every job of this user that Slurm still knows, in any state. Error SLURM_UNAVAILABLE.
Result<std::vector<SlurmJobRow>> slurm_queue();
// One job by id; nullopt when Slurm no longer knows it. Error SLURM_UNAVAILABLE.
Result<std::optional<SlurmJobRow>> slurm_job(const std::string& id);
// Submits; returns the job id. Error SLURM_SUBMIT_FAILED with sbatch's message.
Result<std::string> slurm_submit(const std::vector<std::string>& sbatch_argv);
// scancel; an unknown or ended job is not an error. Error SLURM_UNAVAILABLE.
Status slurm_cancel(const std::string& id);
// Runs argv on one node of `partition` through srun --immediate; the
// command's exit code, or nullopt when no node could be had at once.
// Error SLURM_UNAVAILABLE.
Result<std::optional<int>> slurm_run_on(const std::string& partition, const std::string& node,
                                        const std::vector<std::string>& argv);

}  // namespace jgrid::exec
