// job_state_json and spec_json: the members of job_state_to_doc (job.cpp) and
// spec_to_doc (job_spec.cpp), written straight to text. Keep them in step;
// job_encode_test compares them.
#include "jgrid/model/job.hpp"
#include "jgrid/util/json_writer.hpp"
#include "json_members.hpp"

namespace jgrid::model {
namespace {

using util::JsonWriter;
using json_members::strings;
using json_members::text_map;
using json_members::tree;

template <typename T>
void optional_member(JsonWriter& w, std::string_view key, const std::optional<T>& value) {
  w.key(key);
  if (value) {
    w.value(*value);
  } else {
    w.null();
  }
}

void placement_member(JsonWriter& w, const std::optional<Placement>& placement) {
  w.key("placement");
  if (!placement) {
    w.null();
    return;
  }
  const Placement& p = *placement;
  w.begin_object();
  w.key("node_id").value(p.node_id).key("node_name").value(p.node_name);
  w.key("provider").value(p.provider).key("region").value(p.region);
  w.key("gpu_vendor").value(p.gpu_vendor).key("gpu_model").value(p.gpu_model);
  w.key("gpu_family").value(p.gpu_family).key("runtime").value(p.runtime);
  w.key("runtime_version").value(p.runtime_version).key("gpu_count").value(p.gpu_count);
  w.key("gpu_indices").begin_array();
  for (int index : p.gpu_indices) w.value(index);
  w.end_array();
  w.key("price_per_gpu_hour").value(p.price_per_gpu_hour).key("reason").value(p.reason);
  w.key("score").value(p.score).key("candidates").value(p.candidates);
  w.key("slurm_job_id").value(p.slurm_job_id);
  w.end_object();
}

void outcome_members(JsonWriter& w, const Job& job) {
  w.key("failure");
  if (job.failure) {
    w.begin_object().key("code").value(job.failure->code).key("summary").value(job.failure->summary).end_object();
  } else {
    w.null();
  }
  w.key("diagnosis");
  job.diagnosis ? write_diagnosis(w, *job.diagnosis) : (void)w.null();
  w.key("delay");
  if (job.delay) {
    w.begin_object().key("code").value(job.delay->code).key("message").value(job.delay->message).end_object();
  } else {
    w.null();
  }
  w.key("callback");
  if (const auto& c = job.callback) {
    w.begin_object().key("url").value(c->url).key("status").value(c->status);
    w.key("attempts").value(c->attempts).key("last_error").value(c->last_error).end_object();
  } else {
    w.null();
  }
}

void time_members(JsonWriter& w, const Job& job) {
  w.key("created_ms").value(job.created_ms).key("updated_ms").value(job.updated_ms);
  w.key("queued_ms").value(job.queued_ms);
  optional_member(w, "started_ms", job.started_ms);
  optional_member(w, "completed_ms", job.completed_ms);
  w.key("phase_started_ms").value(job.phase_started_ms).key("phase_updated_ms").value(job.phase_updated_ms);
}

void progress_members(JsonWriter& w, const Job& job) {
  w.key("image_digest").value(job.image_digest);
  optional_member(w, "exit_code", job.exit_code);
  w.key("timed_out").value(job.timed_out).key("attempts").value(job.attempts);
  w.key("delayed_start").value(job.delayed_start).key("log_truncated").value(job.log_truncated);
  w.key("command_spawned").value(job.command_spawned).key("inputs_prepared").value(job.inputs_prepared);
  w.key("scripts_prepared").value(job.scripts_prepared).key("artifacts_ready").value(job.artifacts_ready);
  w.key("estimated_cost_usd").value(job.estimated_cost_usd);
  optional_member(w, "actual_cost_usd", job.actual_cost_usd);
}

void callback_member(JsonWriter& w, const std::optional<CallbackSpec>& callback) {
  w.key("callback");
  if (!callback) {
    w.null();
    return;
  }
  w.begin_object().key("url").value(callback->url).key("auth_token").value(callback->auth_token);
  tree(w, "metadata", callback->metadata);
  w.end_object();
}

void spec_request_members(JsonWriter& w, const JobSpec& spec) {
  w.key("name").value(spec.name).key("workload_type").value(to_string(spec.workload_type));
  w.key("image").value(spec.image);
  strings(w, "command", spec.command);
  text_map(w, "environment", spec.environment);
  w.key("gpu_vendor").value(spec.gpu_vendor).key("runtime").value(spec.runtime);
  w.key("framework").value(spec.framework);
  text_map(w, "labels", spec.labels);
}

void spec_resource_members(JsonWriter& w, const JobSpec& spec) {
  w.key("gpu_count").value(spec.gpu_count).key("requires_gpu").value(spec.requires_gpu);
  w.key("gpu_type").value(spec.gpu_type).key("gpu_class").value(spec.gpu_class);
  optional_member(w, "min_vram_gb", spec.min_vram_gb);
  optional_member(w, "model_size_gb", spec.model_size_gb);
  optional_member(w, "disk_gb", spec.disk_gb);
  tree(w, "constraints", spec.constraints);
  w.key("optimize_for").value(spec.optimize_for).key("priority").value(spec.priority);
  w.key("latency_priority").value(spec.latency_priority).key("cost_priority").value(spec.cost_priority);
  optional_member(w, "timeout_seconds", spec.timeout_seconds);
}

}  // namespace

std::string spec_json(const JobSpec& spec) {
  std::string out;
  out.reserve(768);
  JsonWriter w(out);
  w.begin_object();
  spec_request_members(w, spec);
  spec_resource_members(w, spec);
  strings(w, "input_files", spec.input_files);
  strings(w, "script_files", spec.script_files);
  strings(w, "expected_artifacts", spec.expected_artifacts);
  tree(w, "metadata", spec.metadata);
  callback_member(w, spec.callback);
  tree(w, "echoed", spec.echoed);
  tree(w, "sim", spec.sim);
  w.end_object();
  return out;
}

std::string job_state_json(const Job& job, bool with_tails) {
  std::string out;
  out.reserve(1024);
  JsonWriter w(out);
  w.begin_object();
  w.key("id").value(job.id).key("workspace").value(job.workspace);
  w.key("status").value(to_string(job.status)).key("phase").value(to_string(job.phase));
  w.key("status_reason").value(job.status_reason).key("status_message").value(job.status_message);
  time_members(w, job);
  placement_member(w, job.placement);
  progress_members(w, job);
  outcome_members(w, job);
  if (with_tails) w.key("stdout_tail").value(job.stdout_tail).key("stderr_tail").value(job.stderr_tail);
  w.key("idempotency_key").value(job.idempotency_key).key("request_hash").value(job.request_hash);
  w.end_object();
  return out;
}

}  // namespace jgrid::model
