#include "lifecycle.hpp"

#include <algorithm>
#include <map>

#include "jgrid/util/time.hpp"

namespace jgrid::engine {

bool move_status(model::Job& job, model::JobStatus to, std::int64_t now_ms) {
  if (!model::can_transition(job.status, to)) return false;
  job.status = to;
  job.updated_ms = now_ms;
  return true;
}

void enter_phase(model::Job& job, model::Phase phase, std::int64_t now_ms) {
  if (job.phase != phase) {
    job.phase = phase;
    job.phase_started_ms = now_ms;
  }
  job.phase_updated_ms = now_ms;
}

double cost_for(double price_per_gpu_hour, int gpu_count, double minutes) {
  return price_per_gpu_hour * std::max(gpu_count, 1) * std::max(minutes, 0.0) / 60.0;
}

double run_cost(const model::Job& job, std::int64_t end_ms) {
  if (!job.placement || !job.started_ms) return 0;
  double minutes = static_cast<double>(std::max<std::int64_t>(end_ms - *job.started_ms, 0)) / 60000.0;
  return cost_for(job.placement->price_per_gpu_hour, job.placement->gpu_count, minutes);
}

std::string delay_code(model::Phase phase) {
  static const std::map<model::Phase, std::string> k_codes = {
      {model::Phase::queued, "QUEUE_DELAYED"},
      {model::Phase::scheduling, "SCHEDULING_DELAYED"},
      {model::Phase::provisioning, "PROVISIONING_DELAYED"},
      {model::Phase::runtime_preparation, "RUNTIME_PREPARATION_DELAYED"},
  };
  auto it = k_codes.find(phase);
  return it == k_codes.end() ? "" : it->second;
}

std::string format_duration(std::int64_t ms) {
  std::int64_t seconds = std::max<std::int64_t>(ms, 0) / 1000;
  if (seconds < 120) return std::to_string(seconds) + "s";
  std::int64_t minutes = seconds / 60;
  if (minutes < 120) return std::to_string(minutes) + " min";
  return std::to_string(minutes / 60) + " h " + std::to_string(minutes % 60) + " min";
}

std::string generated_name(const model::JobSpec& spec, std::int64_t now_ms) {
  return std::string(model::to_string(spec.workload_type)) + "-" + util::compact_time(now_ms);
}

}  // namespace jgrid::engine
