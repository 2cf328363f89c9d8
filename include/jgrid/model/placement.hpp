#pragma once
// Where a job runs: chosen by the router, committed by the engine. Kept
// separate from the JobSpec (what was asked). Plain value type.
#include <string>
#include <vector>

namespace jgrid::model {

struct Placement {
  std::string node_id;
  std::string node_name;
  std::string provider;         // "simulated" | "local" | "slurm"
  std::string region;
  std::string gpu_vendor;       // lower-case
  std::string gpu_model;
  std::string gpu_family;
  std::string runtime;          // rocm | cuda
  std::string runtime_version;  // "6.2"
  int gpu_count = 1;
  std::vector<int> gpu_indices;  // which GPUs of the node
  double price_per_gpu_hour = 0;
  std::string reason;           // why this node, for humans
  double score = 0;
  int candidates = 0;           // feasible nodes considered
  std::string slurm_job_id;     // the run's Slurm job id once submitted ("" otherwise)
};

}  // namespace jgrid::model
