#pragma once
// The nodes of a Slurm cluster as the grid sees them, read from `sinfo
// --json` (Slurm 22.05+). Pure: text in, nodes out; the command that produces
// the text lives in the Slurm adapter. Thread-safe (no shared state).
//
// A node's GPUs come from its GRES `gpu:<type>:<n>` and its Features
// (e.g. `amd,mi300x,gfx942,rocm6.2`): the vendor, the gfx arch and the
// runtime with its version are read from the features; the model, family,
// class and VRAM from the GRES type through a mapping table (built-in entries
// for common AMD and NVIDIA types, extended by the fleet file). A node whose
// GPUs cannot be mapped is reported with the reason and never used.
#include <map>
#include <string>
#include <vector>

#include "jgrid/model/node.hpp"
#include "jgrid/util/result.hpp"

namespace jgrid::exec {

// What a GRES type means (the fleet file's `slurm.gpu_types` entries).
struct SlurmGpuType {
  std::string vendor;     // amd | nvidia
  std::string model;      // "MI300X"
  std::string family;     // instinct | radeon | hopper …
  std::string gpu_class;  // datacenter | workstation | consumer
  std::string arch;       // "gfx942"; features may name it instead
  double vram_gb = 0;
};
using SlurmGpuTypes = std::map<std::string, SlurmGpuType>;  // by lower-case GRES type

// The built-in table (mi300x, mi250, w7900, h100 …).
const SlurmGpuTypes& builtin_slurm_gpu_types();

struct SlurmNode {
  model::Node node;          // source "slurm", id node_slurm-<name>, pool = first partition
  std::string slurm_state;   // as Slurm said it, e.g. "mixed+DRAIN"
  std::string unusable;      // why the grid never places work here ("" when usable)
};

// Parses `sinfo --json`. Errors: INVALID_SLURM_OUTPUT when the text is not
// the expected JSON (names what is missing). `extra` entries override the
// built-in ones of the same type.
Result<std::vector<SlurmNode>> parse_sinfo_nodes(const std::string& sinfo_json, const SlurmGpuTypes& extra = {});

// Node state from Slurm's state and flags: idle → online; mixed and
// allocated → busy (online when GPUs are free); DRAIN/DRAINING → draining;
// down, DOWN, NOT_RESPONDING, FAIL → offline.
model::NodeStatus slurm_node_status(const std::string& state, const std::vector<std::string>& flags, int gpus_free);

}  // namespace jgrid::exec
