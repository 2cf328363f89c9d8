#pragma once
// Pure helpers on a job document: status moves through the one transition
// table, phase timing, costs and delay codes. No locking, no store.
#include <cstdint>
#include <string>

#include "jgrid/model/job.hpp"

namespace jgrid::engine {

// Moves `job` to `to` and stamps updated_ms; false (job unchanged) when
// model::can_transition forbids the move.
[[nodiscard]] bool move_status(model::Job& job, model::JobStatus to, std::int64_t now_ms);

// Enters `phase` (restarting its clock when it changes) and stamps phase_updated_ms.
void enter_phase(model::Job& job, model::Phase phase, std::int64_t now_ms);

// price × GPUs × hours; hours from started_ms to `end_ms` (0 when it never started).
double run_cost(const model::Job& job, std::int64_t end_ms);

// price × GPUs × minutes / 60.
double cost_for(double price_per_gpu_hour, int gpu_count, double minutes);

// The delay_reason code for a job stuck in `phase` before its workload runs
// (QUEUE_DELAYED, SCHEDULING_DELAYED, PROVISIONING_DELAYED,
// RUNTIME_PREPARATION_DELAYED); "" for later phases.
std::string delay_code(model::Phase phase);

// "45s", "6 min", "2 h 5 min".
std::string format_duration(std::int64_t ms);

// "<workload_type>-<yyyymmddhhmmss>" for a job submitted without a name.
std::string generated_name(const model::JobSpec& spec, std::int64_t now_ms);

}  // namespace jgrid::engine
