// The docs/api.md §2.3 list item, a subset of the job object (job_api_text.cpp).
#include "jgrid/model/job.hpp"
#include "jgrid/util/time.hpp"
#include "job_api_times.hpp"

namespace jgrid::model {
namespace {

using util::format_time;

void set_if(Json& out, const char* key, const std::string& value) {
  if (!value.empty()) out[key] = value;
}

void set_time_if(Json& out, const char* key, const std::optional<std::int64_t>& ms) {
  if (ms) out[key] = format_time(*ms);
}

// Envelope framing reports a range (see job_api_text.cpp).
Json estimated_cost(const Job& job, Framing framing) {
  if (framing == Framing::plain) return job.estimated_cost_usd;
  return Json{{"min", job.estimated_cost_usd * 0.5}, {"max", job.estimated_cost_usd * 1.5}};
}

}  // namespace

Json job_to_list_item(const Job& job, Framing framing, std::int64_t now_ms) {
  Json out = {{"job_id", job.id}, {"id", job.id}, {"name", job.spec->name},
              {"status", to_string(job.status)}, {"phase", to_string(job.phase)},
              {"execution_phase", to_string(job.phase)}};
  set_if(out, "status_reason", job.status_reason);
  set_if(out, "status_message", job.status_message);
  out["workload_type"] = to_string(job.spec->workload_type);
  out["gpu_vendor"] = effective_vendor(job.spec);
  set_if(out, "image", job.spec->image);
  out["gpu_count"] = job.spec->gpu_count;
  out["priority"] = job.spec->priority;
  out["labels"] = job.spec->labels;
  out["metadata"] = job.spec->metadata.is_object() ? job.spec->metadata : Json::object();
  out["created_at"] = format_time(job.created_ms);
  out["submitted_at"] = format_time(job.created_ms);
  out["updated_at"] = format_time(job.updated_ms);
  set_time_if(out, "started_at", job.started_ms);
  set_time_if(out, "completed_at", job.completed_ms);
  out["wait_duration_seconds"] = api_times::wait_seconds(job, now_ms);
  if (job.exit_code) out["exit_code"] = *job.exit_code;
  if (job.placement) out["assigned_node_id"] = job.placement->node_id;
  out["estimated_cost_usd"] = estimated_cost(job, framing);
  return out;
}

}  // namespace jgrid::model
