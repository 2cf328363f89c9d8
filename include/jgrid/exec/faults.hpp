#pragma once
// Fault rules of the chaos API (docs/simulation.md §4) and the per-pool fault rates of the
// fleet file, and what they decide for one simulated run. Thread-safe.
#include <cstdint>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "jgrid/exec/fleet.hpp"
#include "jgrid/model/node.hpp"
#include "jgrid/util/result.hpp"

namespace jgrid::exec {

// Effects in the order of docs/simulation.md §4.
// The last seven act out the failures the grid diagnoses (docs/simulation.md §4).
inline constexpr const char* k_fault_effects[] = {
    "node_lost",          "start_error",       "exit_code",   "oom",
    "slow",               "image_pull_failed", "ecc_error",   "preempt",
    "rocm_userspace_missing", "no_gpu_visible", "gpu_isa_unsupported", "gpu_device_permission",
    "hip_out_of_memory",  "cuda_on_amd",       "oom_killed"};

struct FaultRule {
  std::string id;                // flt_<n>
  std::string node, pool, job;   // target: at most one set; none set = any
  std::string effect;
  std::optional<double> value;   // exit_code: the code (default 1); slow: the factor (default 2)
  double probability = 1.0;      // per matching run
  std::optional<double> after_s; // node_lost/ecc_error/preempt: seconds after job.running (default: half the run)
  std::optional<int> count;      // runs it may still hit; nullopt: unlimited
  int fired = 0;
};

// Decodes a POST /v1/sim/faults body. Error INVALID_REQUEST naming the field
// ("effect: expected one of node_lost, …, got \"boom\"").
Result<FaultRule> decode_fault_rule(const nlohmann::json& body);
nlohmann::json fault_to_json(const FaultRule& rule);

// What faults decided for one run. Empty: nothing happens.
struct RunFaults {
  bool fail_start = false, pull_fails = false, oom = false;
  std::optional<int> exit_code;
  double slow_factor = 1.0;
  std::string interrupt;                 // node_lost | ecc_error | preempt | ""
  std::string failure;                   // a diagnosed failure to act out (sim_failures.hpp) | ""
  std::optional<double> interrupt_after_s;
  std::vector<std::string> rules;        // ids of the rules that fired, "pool:<name>:<effect>" for pool rates
};

// Adds a node loss, ECC error or preemption from the pool's per-hour rates
// over a run of `run_s` seconds (Poisson: p = 1 - e^(-rate × hours)), unless
// `faults` already has an interruption. Deterministic for the same seed.
void draw_pool_interrupt(RunFaults& faults, const PoolFaults& pool, const std::string& pool_name, double run_s,
                         std::uint64_t seed);

class FaultBook {
 public:
  // Adds a rule, giving it the next id. Returns it as stored.
  FaultRule add(FaultRule rule);
  std::vector<FaultRule> list() const;
  // False when no rule has that id.
  bool remove(const std::string& id);
  void clear();

  // The effects for a run of `job_id` on `node`: each matching rule with
  // count left fires with its probability (drawn from `seed`), then the
  // pool's rates; a rule that fires uses one of its count. Deterministic
  // for the same rules, arguments and seed.
  RunFaults draw(const model::Node& node, const std::string& job_id, const PoolFaults* pool, std::uint64_t seed);

 private:
  mutable std::mutex m_mutex;
  std::vector<FaultRule> m_rules;
  std::uint64_t m_next_id = 0;
};

}  // namespace jgrid::exec
