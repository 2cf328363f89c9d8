#pragma once
// A GPU node of the fleet: static description plus its current state.
// Plain value type; the engine owns the live copies.
#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace jgrid::model {

enum class NodeStatus { online, busy, draining, offline };
std::string_view to_string(NodeStatus status);

// Startup behaviour of a simulated node (docs/simulation.md §1 `startup`).
struct NodeStartup {
  double provision_min_s = 1.0, provision_max_s = 3.0;
  double image_pull_mb_per_s = 400.0;
};

struct Node {
  std::string id;                 // node_<name> (stable across restarts)
  std::string name;               // e.g. mi300x-east-1
  std::string pool;
  std::string source = "simulated";  // local | simulated | slurm
  NodeStatus status = NodeStatus::online;
  std::string gpu_vendor;         // lower-case: amd | nvidia
  std::string runtime;            // rocm | cuda
  std::string runtime_version;    // "6.2"
  std::string gpu_model;          // MI300X
  std::string gpu_family;         // instinct | radeon | hopper ...
  std::string gpu_class;          // datacenter | workstation | consumer
  std::string gpu_arch;           // gfx942 (AMD only)
  int gpu_count = 0;
  int gpus_free = 0;
  double vram_gb = 0;
  std::string region;
  double price_per_gpu_hour = 0;
  double speed = 1.0;
  std::map<std::string, std::string> labels;
  NodeStartup startup;
  int running_jobs = 0;
  std::int64_t last_heartbeat_ms = 0;
};

// "AMD" / "NVIDIA": the vendor as job.gpu.vendor shows it.
std::string vendor_display(const std::string& vendor);
// "ROCm 6.2" / "CUDA 12.4".
std::string runtime_display(const Node& node);
// The same from a runtime ("rocm" | "cuda") and its version; just the runtime
// name when the version is empty.
std::string runtime_display(const std::string& runtime, const std::string& version);

// docs/api.md §2.10 node object.
nlohmann::json node_to_api(const Node& node);

}  // namespace jgrid::model
