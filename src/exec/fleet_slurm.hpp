#pragma once
// The fleet file's `slurm` section (see docs/slurm.md for every member).
#include "exec/json_checker.hpp"
#include "jgrid/exec/fleet.hpp"

namespace jgrid::exec {

// Reads doc.slurm into fleet.slurm when present; problems go to `checker`.
void read_slurm_section(JsonChecker& checker, const Json& doc, Fleet& fleet);

}  // namespace jgrid::exec
