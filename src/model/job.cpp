// The storage document of a Job: every member, explicitly, so that a round
// trip through the store is lossless.
#include "jgrid/model/job.hpp"

namespace jgrid::model {
namespace {

template <typename T>
Json optional_doc(const std::optional<T>& value) {
  return value ? Json(*value) : Json();
}

template <typename T>
std::optional<T> optional_from(const Json& doc, const char* key) {
  auto it = doc.find(key);
  if (it == doc.end() || it->is_null()) return std::nullopt;
  return it->get<T>();
}

Json placement_doc(const Placement& p) {
  return Json{{"node_id", p.node_id},       {"node_name", p.node_name},
              {"provider", p.provider},     {"region", p.region},
              {"gpu_vendor", p.gpu_vendor}, {"gpu_model", p.gpu_model},
              {"gpu_family", p.gpu_family}, {"runtime", p.runtime},
              {"runtime_version", p.runtime_version}, {"gpu_count", p.gpu_count},
              {"gpu_indices", p.gpu_indices}, {"price_per_gpu_hour", p.price_per_gpu_hour},
              {"reason", p.reason},         {"score", p.score},
              {"candidates", p.candidates}, {"slurm_job_id", p.slurm_job_id}};
}

Placement placement_from(const Json& doc) {
  Placement p;
  doc.at("node_id").get_to(p.node_id);
  doc.at("node_name").get_to(p.node_name);
  doc.at("provider").get_to(p.provider);
  doc.at("region").get_to(p.region);
  doc.at("gpu_vendor").get_to(p.gpu_vendor);
  doc.at("gpu_model").get_to(p.gpu_model);
  doc.at("gpu_family").get_to(p.gpu_family);
  doc.at("runtime").get_to(p.runtime);
  doc.at("runtime_version").get_to(p.runtime_version);
  doc.at("gpu_count").get_to(p.gpu_count);
  doc.at("gpu_indices").get_to(p.gpu_indices);
  doc.at("price_per_gpu_hour").get_to(p.price_per_gpu_hour);
  doc.at("reason").get_to(p.reason);
  doc.at("score").get_to(p.score);
  doc.at("candidates").get_to(p.candidates);
  p.slurm_job_id = doc.value("slurm_job_id", "");  // absent in documents written before it existed
  return p;
}

Json failure_doc(const std::optional<Failure>& f) {
  return f ? Json{{"code", f->code}, {"summary", f->summary}} : Json();
}

Json delay_doc(const std::optional<DelayReason>& d) {
  return d ? Json{{"code", d->code}, {"message", d->message}} : Json();
}

Json callback_state_doc(const std::optional<CallbackState>& c) {
  if (!c) return nullptr;
  return Json{{"url", c->url}, {"status", c->status}, {"attempts", c->attempts}, {"last_error", c->last_error}};
}

void read_optionals(const Json& doc, Job& job) {
  job.started_ms = optional_from<std::int64_t>(doc, "started_ms");
  job.completed_ms = optional_from<std::int64_t>(doc, "completed_ms");
  job.exit_code = optional_from<int>(doc, "exit_code");
  job.actual_cost_usd = optional_from<double>(doc, "actual_cost_usd");
  if (const Json& p = doc.at("placement"); !p.is_null()) job.placement = placement_from(p);
  if (const Json& f = doc.at("failure"); !f.is_null()) job.failure = Failure{f.at("code"), f.at("summary")};
  if (auto d = doc.find("diagnosis"); d != doc.end()) job.diagnosis = diagnosis_from_json(*d);  // absent in older documents
  if (const Json& d = doc.at("delay"); !d.is_null()) job.delay = DelayReason{d.at("code"), d.at("message")};
  if (const Json& c = doc.at("callback"); !c.is_null())
    job.callback = CallbackState{c.at("url"), c.at("status"), c.at("attempts"), c.at("last_error")};
}

Status read_states(const Json& doc, Job& job) {
  auto status = parse_job_status(doc.at("status").get<std::string>());
  auto phase = parse_phase(doc.at("phase").get<std::string>());
  if (!status || !phase) return make_error("INTERNAL", "stored job " + job.id + " has an unknown status or phase");
  job.status = *status;
  job.phase = *phase;
  return Ok{};
}

void read_plain(const Json& doc, Job& job) {
  doc.at("workspace").get_to(job.workspace);
  doc.at("status_reason").get_to(job.status_reason);
  doc.at("status_message").get_to(job.status_message);
  doc.at("created_ms").get_to(job.created_ms);
  doc.at("updated_ms").get_to(job.updated_ms);
  doc.at("queued_ms").get_to(job.queued_ms);
  doc.at("phase_started_ms").get_to(job.phase_started_ms);
  doc.at("phase_updated_ms").get_to(job.phase_updated_ms);
  doc.at("image_digest").get_to(job.image_digest);
  doc.at("timed_out").get_to(job.timed_out);
  doc.at("attempts").get_to(job.attempts);
  doc.at("delayed_start").get_to(job.delayed_start);
  doc.at("stdout_tail").get_to(job.stdout_tail);
  doc.at("stderr_tail").get_to(job.stderr_tail);
  doc.at("log_truncated").get_to(job.log_truncated);
  doc.at("command_spawned").get_to(job.command_spawned);
  doc.at("inputs_prepared").get_to(job.inputs_prepared);
  doc.at("scripts_prepared").get_to(job.scripts_prepared);
  doc.at("artifacts_ready").get_to(job.artifacts_ready);
  doc.at("estimated_cost_usd").get_to(job.estimated_cost_usd);
  job.screening = doc.at("screening").dump(-1, ' ', false, Json::error_handler_t::replace);
  doc.at("idempotency_key").get_to(job.idempotency_key);
  doc.at("request_hash").get_to(job.request_hash);
}

}  // namespace

Json job_to_doc(const Job& job) {
  Json doc = job_state_to_doc(job);
  doc["spec"] = spec_to_doc(job.spec);
  doc["screening"] = Json::parse(*job.screening);
  return doc;
}

Json job_state_to_doc(const Job& job) {
  return Json{{"id", job.id},
              {"workspace", job.workspace},
              {"status", to_string(job.status)},
              {"phase", to_string(job.phase)},
              {"status_reason", job.status_reason},
              {"status_message", job.status_message},
              {"created_ms", job.created_ms},
              {"updated_ms", job.updated_ms},
              {"queued_ms", job.queued_ms},
              {"started_ms", optional_doc(job.started_ms)},
              {"completed_ms", optional_doc(job.completed_ms)},
              {"phase_started_ms", job.phase_started_ms},
              {"phase_updated_ms", job.phase_updated_ms},
              {"placement", job.placement ? placement_doc(*job.placement) : Json()},
              {"image_digest", job.image_digest},
              {"exit_code", optional_doc(job.exit_code)},
              {"timed_out", job.timed_out},
              {"attempts", job.attempts},
              {"failure", failure_doc(job.failure)},
              {"diagnosis", job.diagnosis ? diagnosis_to_json(*job.diagnosis) : Json()},
              {"delay", delay_doc(job.delay)},
              {"delayed_start", job.delayed_start},
              {"stdout_tail", job.stdout_tail},
              {"stderr_tail", job.stderr_tail},
              {"log_truncated", job.log_truncated},
              {"command_spawned", job.command_spawned},
              {"inputs_prepared", job.inputs_prepared},
              {"scripts_prepared", job.scripts_prepared},
              {"artifacts_ready", job.artifacts_ready},
              {"estimated_cost_usd", job.estimated_cost_usd},
              {"actual_cost_usd", optional_doc(job.actual_cost_usd)},
              {"callback", callback_state_doc(job.callback)},
              {"idempotency_key", job.idempotency_key},
              {"request_hash", job.request_hash}};
}

Result<Job> job_from_doc(const Json& doc) {
  try {
    Job job;
    doc.at("id").get_to(job.id);
    auto spec = spec_from_doc(doc.at("spec"));
    if (!spec.ok()) return spec.error();
    job.spec = std::move(spec.value());
    if (auto status = read_states(doc, job); !status.ok()) return status.error();
    read_plain(doc, job);
    read_optionals(doc, job);
    return job;
  } catch (const Json::exception& error) {
    return make_error("INTERNAL", std::string("stored job document is not readable: ") + error.what());
  }
}

void append_tail(std::string& tail, const std::string& text) {
  tail += text;
  if (tail.size() <= k_tail_bytes) return;
  std::size_t cut = tail.size() - k_tail_bytes;
  // Prefer a line start; else at least a UTF-8 character start.
  std::size_t newline = tail[cut - 1] == '\n' ? cut - 1 : tail.find('\n', cut);
  if (newline != std::string::npos && newline + 1 < tail.size()) {
    cut = newline + 1;
  } else {
    while (cut < tail.size() && (static_cast<unsigned char>(tail[cut]) & 0xC0) == 0x80) ++cut;
  }
  tail.erase(0, cut);
}

}  // namespace jgrid::model
