// docs/api.md §2.1–2.4: estimate, submit, list, get, runtime, cancel.
#include "api/body_cache.hpp"
#include "api/callback_target.hpp"
#include "api/errors.hpp"
#include "api/handlers.hpp"
#include "api/json_body.hpp"
#include "api/params.hpp"
#include "jgrid/model/job_spec.hpp"
#include "jgrid/util/crypto.hpp"
#include "jgrid/util/strings.hpp"

namespace jgrid::api {
namespace {

std::string idempotency_key(const Call& call) {
  if (!call.idempotency_key.empty()) return call.idempotency_key;
  const Json& metadata = call.body.value("metadata", Json::object());
  if (!metadata.is_object() || !metadata.contains("client_request_id")) return "";
  const Json& id = metadata["client_request_id"];
  return id.is_string() ? id.get<std::string>() : (id.is_null() ? "" : id.dump());
}

// The key is stored and echoed: no control characters, and short enough to
// be an index key.
constexpr std::size_t k_max_idempotency_key_bytes = 255;

Status check_idempotency_key(const Call& call, const std::string& key) {
  std::string field = call.idempotency_key.empty() ? "metadata.client_request_id" : "Idempotency-Key";
  if (key.size() > k_max_idempotency_key_bytes)
    return invalid_request(field + ": expected at most " + std::to_string(k_max_idempotency_key_bytes) + " bytes",
                           field);
  if (util::has_control_char(key)) return invalid_request(field + ": must not contain control characters", field);
  return Ok{};
}

Result<std::vector<model::JobStatus>> status_filter(const Call& call) {
  std::vector<model::JobStatus> out;
  for (const auto& part : util::split(call.param("status").value_or(""), ',')) {
    std::string name = util::to_lower(util::trim(part));
    if (name.empty()) continue;
    auto status = model::parse_job_status(name);
    if (!status)
      return invalid_request("status: unknown status '" + name +
                                 "' (expected pending, queued, assigned, starting, running, completed, failed, "
                                 "rejected or cancelled)",
                             "status");
    out.push_back(*status);
  }
  return out;
}

Result<std::string> workload_filter(const Call& call) {
  std::string text = call.param("workload_type").value_or("");
  if (text.empty()) return text;
  auto type = model::parse_workload_type(util::to_lower(text));
  if (!type)
    return invalid_request("workload_type: unknown workload type '" + text +
                               "' (expected inference, training, fine-tuning or batch)",
                           "workload_type");
  return std::string(model::to_string(*type));
}

Result<std::string> vendor_filter(const Call& call) {
  std::string vendor = util::to_lower(call.param("gpu_vendor").value_or(""));
  if (vendor.empty() || vendor == "amd" || vendor == "nvidia" || vendor == "any") return vendor;
  return invalid_request("gpu_vendor: expected amd, nvidia or any, got '" + vendor + "'", "gpu_vendor");
}

Result<store::JobQuery> job_query(const Call& call) {
  store::JobQuery query;
  query.workspace = workspace_of(call);
  auto limit = limit_param(call, 20, 100);
  if (!limit) return limit.error();
  auto statuses = status_filter(call);
  if (!statuses) return statuses.error();
  auto workload = workload_filter(call);
  if (!workload) return workload.error();
  auto vendor = vendor_filter(call);
  if (!vendor) return vendor.error();
  query.limit = *limit;
  query.statuses = std::move(*statuses);
  query.workload_type = std::move(*workload);
  query.gpu_vendor = std::move(*vendor);
  query.before_id = call.param("cursor").value_or("");
  return query;
}

Json availability(const std::string& state, const std::string& reason) {
  return Json{{"state", state}, {"reason", reason}};
}

Json tail_availability(const model::Job& job) {
  if (job.log_truncated) return availability("truncated", "log storage limit reached: some lines were dropped");
  if (!model::is_terminal(job.status)) return availability("delayed", "the workload is still running");
  return availability("available", "");
}

Json exit_code_availability(const model::Job& job) {
  if (job.exit_code) return availability("available", "");
  if (!model::is_terminal(job.status)) return availability("delayed", "the workload has not exited yet");
  return availability("unsupported", job.failure ? job.failure->summary : "the workload ended without an exit code");
}

// ?dry_run=1 (or true): the submit's plan, as estimate computes it, and no job.
Result<bool> dry_run(const Call& call) {
  std::string value = util::to_lower(call.param("dry_run").value_or(""));
  if (value == "1" || value == "true") return true;
  if (value.empty() || value == "0" || value == "false") return false;
  return invalid_request("dry_run: expected 1, 0, true or false, got '" + value + "'", "dry_run");
}

// --max-env-keys and --max-labels (at most the documented caps of 256 and 64, docs/api.md).
Status check_map_size(const Json& body, const std::string& field, int limit) {
  if (!body.contains(field) || !body[field].is_object() || body[field].size() <= static_cast<std::size_t>(limit))
    return Ok{};
  return invalid_request(field + ": " + std::to_string(body[field].size()) + " keys, expected at most " +
                             std::to_string(limit),
                         field);
}

Status check_spec_limits(const Context& ctx, const Json& body) {
  for (const char* field : {"environment", "env"})
    if (auto ok = check_map_size(body, field, ctx.options.max_env_keys); !ok) return ok;
  return check_map_size(body, "labels", ctx.options.max_labels);
}

}  // namespace

Result<Json> estimate_job(const Context& ctx, const Call& call) {
  if (auto limits = check_spec_limits(ctx, call.body); !limits) return limits.error();
  auto spec = model::decode_job_spec(call.body, model::SpecMode::estimate);
  if (!spec) return spec.error();
  return ctx.engine.estimate(*spec, call.framing);
}

Result<Reply> submit_job(const Context& ctx, const Call& call) {
  if (auto limits = check_spec_limits(ctx, call.body); !limits) return limits.error();
  auto spec = model::decode_job_spec(call.body, model::SpecMode::submit);
  if (!spec) return spec.error();
  if (auto target = check_callback_target(ctx, call, *spec); !target) return target.error();
  auto plan_only = dry_run(call);
  if (!plan_only) return plan_only.error();
  std::string key = idempotency_key(call);
  if (auto valid = check_idempotency_key(call, key); !valid) return valid.error();
  if (*plan_only) {
    Json plan = ctx.engine.estimate(*spec, call.framing);
    plan["dry_run"] = true;
    return Reply::of(std::move(plan), 200);
  }
  std::string hash = key.empty() ? "" : util::sha256_hex(call.body.dump());  // only a key's replay compares it
  // What the workspace spent before this job: on a virtual clock the job
  // may have run to its end before this answer is written.
  const std::string workspace = workspace_of(call);
  const double spent_before = ctx.store.spent_usd(workspace);
  auto submitted = ctx.engine.submit({std::move(*spec), workspace, std::move(key), std::move(hash)});
  if (!submitted) return submitted.error();
  const model::Job& job = submitted->job;
  double spent = submitted->replayed ? ctx.store.spent_usd(job.workspace) : spent_before;
  std::string text = model::job_to_api_json(job, call.framing, ctx.now_ms(), spent);
  Reply reply = serialized_json(framed_text(std::move(text), call.framing), submitted->replayed ? 200 : 202);
  reply.headers.emplace_back("Location", call.base_url + "/v1/jobs/" + util::percent_encode(job.id));
  return reply;
}

Result<Json> list_jobs(const Context& ctx, const Call& call) {
  auto query = job_query(call);
  if (!query) return query.error();
  auto page = ctx.store.list_jobs(*query);
  Json items = Json::array();
  std::int64_t now = ctx.now_ms();
  for (const auto& job : page.jobs) items.push_back(model::job_to_list_item(job, call.framing, now));
  bool more = page.has_more && !page.jobs.empty();
  return Json{{"jobs", std::move(items)},
              {"limit", query->limit},
              {"next_cursor", more ? Json(page.jobs.back().id) : Json(nullptr)},
              {"has_more", more}};
}

// A job that started or finished renders the same until the store changes
// (what its workspace spent changes only with a commit too), so its body is
// cached per store version.
Result<Reply> get_job(const Context& ctx, const Call& call) {
  std::uint64_t version = ctx.store.committed().version();
  std::string key = call.capture(0) + (call.framing == model::Framing::plain ? "|plain" : "|envelope");
  if (auto body = ctx.bodies->find(version, key)) return serialized_json(std::move(*body));
  auto job = find_job(ctx, call);
  if (!job) return job.error();
  std::string body = framed_text(
      model::job_to_api_json(*job, call.framing, ctx.now_ms(), ctx.store.spent_usd(job->workspace)), call.framing);
  if (job->started_ms || job->completed_ms) ctx.bodies->put(version, key, body);
  return serialized_json(std::move(body));
}

Result<Json> get_runtime(const Context& ctx, const Call& call) {
  auto job = find_job(ctx, call);
  if (!job) return job.error();
  if (!job->started_ms && !job->exit_code && !job->command_spawned)
    return make_error("NOT_FOUND", "job runtime not available yet");
  Json diagnostics = Json::array();
  if (job->failure) diagnostics.push_back({{"code", job->failure->code}, {"message", job->failure->summary}});
  return Json{{"job_id", job->id},
              {"status", model::to_string(job->status)},
              {"exit_code", job->exit_code ? Json(*job->exit_code) : Json(nullptr)},
              {"timed_out", job->timed_out},
              {"stdout_tail", job->stdout_tail},
              {"stderr_tail", job->stderr_tail},
              {"runtime_availability",
               {{"exit_code", exit_code_availability(*job)},
                {"stdout_tail", tail_availability(*job)},
                {"stderr_tail", tail_availability(*job)}}},
              {"diagnostics", std::move(diagnostics)}};
}

Result<Json> cancel_job(const Context& ctx, const Call& call) {
  auto reason = body_string(call, "reason");
  if (!reason) return reason.error();
  auto job = ctx.engine.cancel(call.capture(0), workspace_of(call), *reason);
  if (!job) return job.error();
  std::string message = job->status_message.empty() ? "job cancelled" : job->status_message;
  return Json{{"job_id", job->id},
              {"id", job->id},
              {"status", model::to_string(job->status)},
              {"cancelled", true},
              {"message", message},
              {"status_reason", job->status_reason}};
}

}  // namespace jgrid::api
