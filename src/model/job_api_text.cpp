// The docs/api.md §3 job object written straight to text (every submit and every
// uncached GET renders one), with the screening text spliced in as is.
// Unknown values are omitted, never null, except exit_code and
// actual_cost_usd which the contract allows to be null.
#include <cmath>

#include "jgrid/model/job.hpp"
#include "jgrid/model/node.hpp"
#include "jgrid/util/json_writer.hpp"
#include "jgrid/util/time.hpp"
#include "job_api_times.hpp"
#include "json_members.hpp"

namespace jgrid::model {
namespace {

using util::JsonWriter;

void text_if(JsonWriter& w, std::string_view key, const std::string& value) {
  if (!value.empty()) w.key(key).value(value);
}

void time_member(JsonWriter& w, std::string_view key, std::int64_t ms) { w.key(key).value(util::format_time(ms)); }

void time_if(JsonWriter& w, std::string_view key, const std::optional<std::int64_t>& ms) {
  if (ms) time_member(w, key, *ms);
}

void number_or_null(JsonWriter& w, std::string_view key, const std::optional<double>& value) {
  w.key(key);
  value ? w.value(*value) : w.null();
}

// Free-form members are objects by contract; a hand-built value that is not
// one must not leak a null into the response.
void object_member(JsonWriter& w, std::string_view key, const Json& value) {
  if (value.is_object()) {
    json_members::tree(w, key, value);
  } else {
    w.key(key).raw("{}");
  }
}

void identity(JsonWriter& w, const Job& job) {
  w.key("job_id").value(job.id).key("id").value(job.id).key("name").value(job.spec->name);
  w.key("status").value(to_string(job.status)).key("phase").value(to_string(job.phase));
  w.key("execution_phase").value(to_string(job.phase));
  text_if(w, "status_reason", job.status_reason);
  text_if(w, "status_message", job.status_message);
}

void request(JsonWriter& w, const JobSpec& spec) {
  w.key("workload_type").value(to_string(spec.workload_type));
  text_if(w, "image", spec.image);
  json_members::strings(w, "command", spec.command);
  w.key("environment_keys").begin_array();
  for (const auto& entry : spec.environment) w.value(entry.first);
  w.end_array();
  w.key("gpu_vendor").value(effective_vendor(spec));
  text_if(w, "framework", spec.framework);
  w.key("gpu_count").value(spec.gpu_count);
  if (spec.model_size_gb) w.key("model_size_gb").value(*spec.model_size_gb);
  w.key("optimize_for").value(spec.optimize_for).key("priority").value(spec.priority);
  object_member(w, "constraints", spec.constraints);
  json_members::text_map(w, "labels", spec.labels);
  object_member(w, "metadata", spec.metadata);
  json_members::strings(w, "expected_artifacts", spec.expected_artifacts);
  json_members::strings(w, "input_files", spec.input_files);
  json_members::strings(w, "script_files", spec.script_files);
  if (spec.timeout_seconds) w.key("timeout_seconds").value(*spec.timeout_seconds);
  if (!spec.echoed.is_object()) return;
  for (const auto& [key, value] : spec.echoed.items()) {  // template, notes, *_credential_id: no clash
    if (!value.is_null()) json_members::tree(w, key, value);
  }
}

void times(JsonWriter& w, const Job& job, std::int64_t now_ms) {
  time_member(w, "created_at", job.created_ms);
  time_member(w, "submitted_at", job.created_ms);
  time_member(w, "queued_at", api_times::queued_at_ms(job));
  time_member(w, "updated_at", job.updated_ms);
  time_member(w, "last_status_update", job.updated_ms);
  time_if(w, "started_at", job.started_ms);
  time_if(w, "completed_at", job.completed_ms);
  time_member(w, "phase_started_at", job.phase_started_ms > 0 ? job.phase_started_ms : job.created_ms);
  time_member(w, "phase_last_updated_at", job.phase_updated_ms > 0 ? job.phase_updated_ms : job.updated_ms);
  w.key("wait_duration_seconds").value(api_times::wait_seconds(job, now_ms));
}

void gpu(JsonWriter& w, const Placement& p) {
  w.begin_object().key("vendor").value(vendor_display(p.gpu_vendor)).key("name").value(p.gpu_model);
  w.key("runtime_version").value(runtime_display(p.runtime, p.runtime_version)).key("count").value(p.gpu_count);
  w.end_object();
}

// "hardware repeats them" (docs/api.md §3): same strings as gpu, ROCm jobs only.
void hardware(JsonWriter& w, const Placement& p) {
  w.begin_object().key("gpu_vendor").value(vendor_display(p.gpu_vendor)).key("gpu_name").value(p.gpu_model);
  w.key("gpu");
  gpu(w, p);
  if (p.runtime == "rocm" || p.gpu_vendor == "amd")
    w.key("rocm_version").value(runtime_display(p.runtime, p.runtime_version));
  w.end_object();
}

void placement(JsonWriter& w, const Job& job) {
  if (!job.placement) return;
  const Placement& p = *job.placement;
  w.key("scheduling").begin_object().key("node_id").value(p.node_id).key("provider").value(p.provider);
  w.key("gpu");
  gpu(w, p);
  w.key("hardware");
  hardware(w, p);
  w.key("attempt").value(job.attempts);
  text_if(w, "region", p.region);
  text_if(w, "image", job.spec->image);
  text_if(w, "node_name", p.node_name);
  text_if(w, "slurm_job_id", p.slurm_job_id);
  w.end_object();
  w.key("assigned_node_id").value(p.node_id);
  text_if(w, "provider", p.provider);
  text_if(w, "region", p.region);
  w.key("gpu");
  gpu(w, p);
  w.key("hardware");
  hardware(w, p);
}

void runtime(JsonWriter& w, const Job& job) {
  bool logs = job.command_spawned || !job.stdout_tail.empty() || !job.stderr_tail.empty();
  w.key("startup_diagnostics").begin_object().key("command_spawned").value(job.command_spawned);
  w.key("workload_logs_available").value(logs).key("inputs_prepared").value(job.inputs_prepared);
  w.key("scripts_prepared").value(job.scripts_prepared).end_object();
  w.key("exit_code");
  job.exit_code ? w.value(*job.exit_code) : w.null();
  w.key("timed_out").value(job.timed_out).key("attempts").value(job.attempts);
  if (job.failure && job.status == JobStatus::failed)
    w.key("failure").begin_object().key("code").value(job.failure->code).key("summary").value(job.failure->summary).end_object();
  if (job.diagnosis && job.status == JobStatus::failed) write_diagnosis(w.key("diagnosis"), *job.diagnosis);
  w.key("artifacts_ready").value(job.artifacts_ready).key("delayed_start").value(job.delayed_start);
  if (job.delay)
    w.key("delay_reason").begin_object().key("code").value(job.delay->code).key("message").value(job.delay->message).end_object();
}

// Envelope framing reports a range: the estimate is a point value, so the
// range is a fixed band of -50% / +50% around it.
void billing(JsonWriter& w, const Job& job, Framing framing, double lifetime_spent_usd) {
  w.key("estimated_cost_usd");
  if (framing == Framing::plain) {
    w.value(job.estimated_cost_usd);
  } else {
    w.begin_object().key("min").value(job.estimated_cost_usd * 0.5).key("max").value(job.estimated_cost_usd * 1.5).end_object();
  }
  number_or_null(w, "actual_cost_usd", job.actual_cost_usd);
  w.key("billing").begin_object().key("status").value(job.actual_cost_usd ? "final" : "estimated");
  number_or_null(w, "actual_cost_usd", job.actual_cost_usd);
  w.end_object();
  double cents = std::round(lifetime_spent_usd * 100.0) / 100.0;  // as the estimate's money fields
  w.key("account_billing").begin_object().key("lifetime_total_spent_usd").value(cents).end_object();
}

void callback(JsonWriter& w, const Job& job) {
  if (job.callback) {
    const CallbackState& c = *job.callback;
    w.key("callback").begin_object().key("url").value(c.url).key("status").value(c.status);
    w.key("attempts").value(c.attempts);
    text_if(w, "last_error", c.last_error);
    w.end_object();
  } else if (job.spec->callback) {
    w.key("callback").begin_object().key("url").value(job.spec->callback->url);
    w.key("status").value("pending").key("attempts").value(0).end_object();
  }
}

}  // namespace

std::string job_to_api_json(const Job& job, Framing framing, std::int64_t now_ms, double lifetime_spent_usd) {
  std::string out;
  out.reserve(1536 + job.screening->size());
  JsonWriter w(out);
  w.begin_object();
  identity(w, job);
  request(w, job.spec);
  text_if(w, "runtime", !job.spec->runtime.empty() ? job.spec->runtime : job.placement ? job.placement->runtime : "");
  text_if(w, "image_digest", job.image_digest);
  times(w, job, now_ms);
  placement(w, job);
  runtime(w, job);
  billing(w, job, framing, lifetime_spent_usd);
  callback(w, job);
  w.key("screening").raw(*job.screening);
  w.end_object();
  return out;
}

Json job_to_api(const Job& job, Framing framing, std::int64_t now_ms, double lifetime_spent_usd) {
  return Json::parse(job_to_api_json(job, framing, now_ms, lifetime_spent_usd));
}

}  // namespace jgrid::model
