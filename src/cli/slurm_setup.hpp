#pragma once
// The Slurm cluster of `serve` (docs/slurm.md): its options from the fleet
// file's `slurm` section and the --slurm* flags, its nodes added to the
// fleet, the check that its compute nodes see the data dir, its executor.
#include <filesystem>
#include <memory>
#include <string>

#include "jgrid/exec/fleet.hpp"
#include "jgrid/exec/slurm_executor.hpp"
#include "serve_options.hpp"

namespace jgrid::cli {

struct SlurmSetup {
  std::shared_ptr<exec::Executor> executor;  // null: no Slurm
  std::string summary;                       // one banner line
};

// True when `serve` runs with Slurm (--slurm, or a fleet file's slurm section).
bool slurm_wanted(const ServeOptions& options, const exec::Fleet& fleet);

// Reads the nodes into `fleet` (unusable ones too, offline with their
// reason in labels["slurm.unusable"]) and makes the executor. Errors
// SLURM_UNAVAILABLE, INVALID_SLURM_OUTPUT, DATA_DIR_NOT_SHARED, and
// SLURM_NO_NODES when no node of the chosen partitions has GPUs it can use.
Result<SlurmSetup> setup_slurm(const ServeOptions& options, exec::Fleet& fleet, const std::filesystem::path& data_dir,
                               std::shared_ptr<util::Clock> clock);

}  // namespace jgrid::cli
