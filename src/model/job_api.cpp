// The api.md §3 job object. Unknown values are omitted, never null, except
// exit_code and actual_cost_usd which the contract allows to be null.
#include <algorithm>
#include <cmath>

#include "jgrid/model/job.hpp"
#include "jgrid/model/node.hpp"
#include "jgrid/util/time.hpp"

namespace jgrid::model {
namespace {

using util::format_time;

void set_if(Json& out, const char* key, const std::string& value) {
  if (!value.empty()) out[key] = value;
}

void set_time_if(Json& out, const char* key, const std::optional<std::int64_t>& ms) {
  if (ms) out[key] = format_time(*ms);
}

std::int64_t queued_at_ms(const Job& job) { return job.queued_ms > 0 ? job.queued_ms : job.created_ms; }

double wait_seconds(const Job& job, std::int64_t now_ms) {
  std::int64_t end = job.started_ms ? *job.started_ms : job.completed_ms ? *job.completed_ms : now_ms;
  return std::max<std::int64_t>(0, end - queued_at_ms(job)) / 1000.0;
}

// Envelope framing reports a range: the estimate is a point value, so the
// range is a fixed band of -50% / +50% around it.
Json estimated_cost(const Job& job, Framing framing) {
  if (framing == Framing::plain) return job.estimated_cost_usd;
  return Json{{"min", job.estimated_cost_usd * 0.5}, {"max", job.estimated_cost_usd * 1.5}};
}

// Free-form members are objects by contract; a hand-built value that is not
// one must not leak a null into the response.
Json object_or_empty(const Json& value) { return value.is_object() ? value : Json::object(); }

Json optional_json(const std::optional<double>& value) { return value ? Json(*value) : Json(); }

std::string runtime_of(const Job& job) {
  if (!job.spec->runtime.empty()) return job.spec->runtime;
  return job.placement ? job.placement->runtime : "";
}

Json gpu_object(const Placement& p) {
  return Json{{"vendor", vendor_display(p.gpu_vendor)},
              {"name", p.gpu_model},
              {"runtime_version", runtime_display(p.runtime, p.runtime_version)},
              {"count", p.gpu_count}};
}

Json hardware_object(const Placement& p) {
  Json gpu = gpu_object(p);
  Json out = {{"gpu_vendor", gpu["vendor"]}, {"gpu_name", p.gpu_model}, {"gpu", gpu}};
  // "hardware repeats them" (api.md §3): same strings as gpu, ROCm jobs only.
  if (p.runtime == "rocm" || p.gpu_vendor == "amd") out["rocm_version"] = gpu["runtime_version"];
  return out;
}

void add_placement(Json& out, const Job& job) {
  if (!job.placement) return;
  const Placement& p = *job.placement;
  Json scheduling = {{"node_id", p.node_id}, {"provider", p.provider}, {"gpu", gpu_object(p)},
                     {"hardware", hardware_object(p)}, {"attempt", job.attempts}};
  set_if(scheduling, "region", p.region);
  set_if(scheduling, "image", job.spec->image);
  set_if(scheduling, "node_name", p.node_name);
  out["scheduling"] = scheduling;
  out["assigned_node_id"] = p.node_id;
  set_if(out, "provider", p.provider);
  set_if(out, "region", p.region);
  out["gpu"] = gpu_object(p);
  out["hardware"] = hardware_object(p);
}

void add_times(Json& out, const Job& job, std::int64_t now_ms) {
  out["created_at"] = format_time(job.created_ms);
  out["submitted_at"] = format_time(job.created_ms);
  out["queued_at"] = format_time(queued_at_ms(job));
  out["updated_at"] = format_time(job.updated_ms);
  out["last_status_update"] = format_time(job.updated_ms);
  set_time_if(out, "started_at", job.started_ms);
  set_time_if(out, "completed_at", job.completed_ms);
  out["phase_started_at"] = format_time(job.phase_started_ms > 0 ? job.phase_started_ms : job.created_ms);
  out["phase_last_updated_at"] = format_time(job.phase_updated_ms > 0 ? job.phase_updated_ms : job.updated_ms);
  out["wait_duration_seconds"] = wait_seconds(job, now_ms);
}

void add_request(Json& out, const JobSpec& spec) {
  out["workload_type"] = to_string(spec.workload_type);
  set_if(out, "image", spec.image);
  out["command"] = spec.command;
  Json keys = Json::array();
  for (const auto& entry : spec.environment) keys.push_back(entry.first);
  out["environment_keys"] = keys;
  out["gpu_vendor"] = effective_vendor(spec);
  set_if(out, "framework", spec.framework);
  out["gpu_count"] = spec.gpu_count;
  if (spec.model_size_gb) out["model_size_gb"] = *spec.model_size_gb;
  out["optimize_for"] = spec.optimize_for;
  out["priority"] = spec.priority;
  out["constraints"] = object_or_empty(spec.constraints);
  out["labels"] = spec.labels;
  out["metadata"] = object_or_empty(spec.metadata);
  out["expected_artifacts"] = spec.expected_artifacts;
  out["input_files"] = spec.input_files;
  out["script_files"] = spec.script_files;
  if (spec.timeout_seconds) out["timeout_seconds"] = *spec.timeout_seconds;
  const Json echoed = object_or_empty(spec.echoed);
  for (const auto& [key, value] : echoed.items())
    if (!value.is_null()) out[key] = value;
}

void add_runtime(Json& out, const Job& job) {
  out["startup_diagnostics"] = {{"command_spawned", job.command_spawned},
                                {"workload_logs_available", job.command_spawned || !job.stdout_tail.empty() ||
                                                                !job.stderr_tail.empty()},
                                {"inputs_prepared", job.inputs_prepared},
                                {"scripts_prepared", job.scripts_prepared}};
  out["exit_code"] = job.exit_code ? Json(*job.exit_code) : Json();
  out["timed_out"] = job.timed_out;
  out["attempts"] = job.attempts;
  if (job.failure && job.status == JobStatus::failed)
    out["failure"] = {{"code", job.failure->code}, {"summary", job.failure->summary}};
  out["artifacts_ready"] = job.artifacts_ready;
  out["delayed_start"] = job.delayed_start;
  if (job.delay) out["delay_reason"] = {{"code", job.delay->code}, {"message", job.delay->message}};
}

std::string dump_api(const Json& json) { return json.dump(-1, ' ', false, Json::error_handler_t::replace); }

void add_billing(Json& out, const Job& job, Framing framing) {
  out["estimated_cost_usd"] = estimated_cost(job, framing);
  out["actual_cost_usd"] = optional_json(job.actual_cost_usd);
  out["billing"] = {{"status", job.actual_cost_usd ? "final" : "estimated"},
                    {"actual_cost_usd", optional_json(job.actual_cost_usd)}};
  out["account_billing"] = {{"lifetime_total_spent_usd", 0}};
}

void add_callback(Json& out, const Job& job) {
  if (job.callback) {
    Json callback = {{"url", job.callback->url}, {"status", job.callback->status},
                     {"attempts", job.callback->attempts}};
    set_if(callback, "last_error", job.callback->last_error);
    out["callback"] = callback;
  } else if (job.spec->callback) {
    out["callback"] = {{"url", job.spec->callback->url}, {"status", "pending"}, {"attempts", 0}};
  }
}

Json identity(const Job& job) {
  Json out = {{"job_id", job.id}, {"id", job.id}, {"name", job.spec->name},
              {"status", to_string(job.status)}, {"phase", to_string(job.phase)},
              {"execution_phase", to_string(job.phase)}};
  set_if(out, "status_reason", job.status_reason);
  set_if(out, "status_message", job.status_message);
  return out;
}

// job_to_api without "screening".
Json job_to_api_state(const Job& job, Framing framing, std::int64_t now_ms) {
  Json out = identity(job);
  add_request(out, job.spec);
  set_if(out, "runtime", runtime_of(job));
  set_if(out, "image_digest", job.image_digest);
  add_times(out, job, now_ms);
  add_placement(out, job);
  add_runtime(out, job);
  add_billing(out, job, framing);
  add_callback(out, job);
  return out;
}

}  // namespace

Json job_to_api(const Job& job, Framing framing, std::int64_t now_ms) {
  Json out = job_to_api_state(job, framing, now_ms);
  out["screening"] = Json::parse(*job.screening);
  return out;
}

std::string job_to_api_json(const Job& job, Framing framing, std::int64_t now_ms) {
  std::string out = dump_api(job_to_api_state(job, framing, now_ms));
  out.pop_back();  // the closing brace; identity() always writes members, so a comma follows
  out += ",\"screening\":";
  out += *job.screening;
  out += '}';
  return out;
}

Json job_to_list_item(const Job& job, Framing framing, std::int64_t now_ms) {
  Json out = identity(job);
  out["workload_type"] = to_string(job.spec->workload_type);
  out["gpu_vendor"] = effective_vendor(job.spec);
  set_if(out, "image", job.spec->image);
  out["gpu_count"] = job.spec->gpu_count;
  out["priority"] = job.spec->priority;
  out["labels"] = job.spec->labels;
  out["metadata"] = object_or_empty(job.spec->metadata);
  out["created_at"] = format_time(job.created_ms);
  out["submitted_at"] = format_time(job.created_ms);
  out["updated_at"] = format_time(job.updated_ms);
  set_time_if(out, "started_at", job.started_ms);
  set_time_if(out, "completed_at", job.completed_ms);
  out["wait_duration_seconds"] = wait_seconds(job, now_ms);
  if (job.exit_code) out["exit_code"] = *job.exit_code;
  if (job.placement) out["assigned_node_id"] = job.placement->node_id;
  out["estimated_cost_usd"] = estimated_cost(job, framing);
  return out;
}

}  // namespace jgrid::model
