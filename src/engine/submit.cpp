#include "estimate.hpp"
#include "impl.hpp"
#include "jgrid/util/ids.hpp"
#include "jgrid/util/json_members.hpp"
#include "lifecycle.hpp"

namespace jgrid::engine {
namespace {

std::string key_of(const SubmitRequest& request) { return request.workspace + '\n' + request.idempotency_key; }

Error capacity_error(const route::RouteResult& route, const screen::Intent& intent, std::size_t nodes) {
  return make_error("CAPACITY_UNAVAILABLE", route.explanation,
                    {{"retry_after_seconds", 30},
                     {"route_status", "unavailable"},
                     {"gpu_vendor", intent.vendor.empty() ? "any" : intent.vendor},
                     {"unknown_cuda_heavy", intent.unknown_cuda_heavy},
                     {"unknown_stack", intent.unknown_stack},
                     {"nodes_considered", nodes}});
}

// Takes the spec out of `request` (its workspace and key stay).
model::Job new_job(SubmitRequest& request, std::int64_t now_ms, double estimated_cost) {
  model::Job job;
  job.id = util::new_id("job", now_ms);
  job.workspace = request.workspace;
  job.spec = std::move(request.spec);
  if (job.spec->name.empty()) job.spec.edit().name = generated_name(job.spec, now_ms);
  job.status = model::JobStatus::queued;
  job.phase = model::Phase::queued;
  job.status_message = "waiting for a node";
  job.created_ms = job.updated_ms = job.queued_ms = now_ms;
  job.phase_started_ms = job.phase_updated_ms = now_ms;
  job.estimated_cost_usd = estimated_cost;
  job.idempotency_key = request.idempotency_key;
  job.request_hash = request.request_hash;
  if (job.spec->callback) job.callback = model::CallbackState{job.spec->callback->url};
  return job;
}

nlohmann::json submitted_data(const model::JobSpec& spec, const screen::Intent& intent) {
  return {{"workload_type", model::to_string(spec.workload_type)},
          {"gpu_vendor", intent.vendor.empty() ? "any" : intent.vendor},
          {"gpu_count", spec.gpu_count},
          {"priority", spec.priority}};
}

}  // namespace

// With an idempotency key the key is claimed before screening, so a replay
// returns the earlier job whatever screening would say now.
Result<SubmitResult> Engine::Impl::submit(SubmitRequest request) {
  auto prepare_and_submit = [this](const SubmitRequest& claimed) -> Result<SubmitResult> {
    auto prepared = prepare(claimed);
    if (!prepared) return prepared.error();
    return submit_new(*prepared);
  };
  return under_key(request, prepare_and_submit);
}

Result<SubmitResult> Engine::Impl::submit_prepared(PreparedSubmit prepared) {
  return under_key(prepared.request, [&](const SubmitRequest&) { return submit_new(prepared); });
}

template <typename SubmitNew>
Result<SubmitResult> Engine::Impl::under_key(const SubmitRequest& request, SubmitNew&& submit_new) {
  if (request.idempotency_key.empty()) return submit_new(request);
  auto claimed = claim_key(request);
  if (!claimed) return claimed.error();
  if (*claimed) return SubmitResult{std::move(**claimed), true};
  auto result = submit_new(request);
  release_key(request);
  return result;
}

// Screening, and the job's screening text rendered: nothing here reads the
// engine's changing state (the fleet's catalog and options are fixed).
Result<PreparedSubmit> Engine::Impl::prepare(SubmitRequest request) const {
  ImageRead image = read_image(request.spec.image, m_options.image_lookup_bound);
  screen::Screening screening = screen_read(request.spec, image);
  if (screening.blocked()) return screening_error(screening);
  std::string screening_json = screen::job_screening_json(screening);
  screening_json.shrink_to_fit();  // it lives as long as the job, which takes it over
  EventSpec screened = screened_event(screening);
  PreparedSubmit prepared{std::move(request),       std::move(screening),     std::move(screening_json), image.pending,
                          std::move(screened.message), std::move(screened.level), std::move(screened.data)};
  prepared.submitted_data = submitted_data(prepared.request.spec, prepared.screening.intent);
  prepared.route_key = route::route_key(prepared.request.spec, prepared.screening.intent);
  return prepared;
}

// Waits while another submit with the same key is committing, then either
// returns the job it made or claims the key (nullopt) until release_key().
Result<std::optional<model::Job>> Engine::Impl::claim_key(const SubmitRequest& request) {
  std::unique_lock lock(m_mutex);
  m_keys_cv.wait(lock, [&] { return m_pending_keys.count(key_of(request)) == 0; });
  auto existing = m_store.find_by_idempotency_key(request.workspace, request.idempotency_key);
  if (!existing) {
    m_pending_keys.insert(key_of(request));
    return std::optional<model::Job>{};
  }
  if (existing->request_hash != request.request_hash)
    return make_error("CONFLICT", "idempotency key reused with a different request",
                      {{"job_id", existing->id}, {"idempotency_key", request.idempotency_key}});
  if (LiveJob* live = find_live_locked(existing->id)) return std::optional<model::Job>{live->job};
  return std::optional<model::Job>{std::move(*existing)};
}

void Engine::Impl::release_key(const SubmitRequest& request) {
  std::lock_guard lock(m_mutex);
  m_pending_keys.erase(key_of(request));
  m_keys_cv.notify_all();
}

Status Engine::Impl::check_inputs(const model::JobSpec& spec, const std::string& workspace) const {
  for (const auto* ids : {&spec.input_files, &spec.script_files}) {
    for (const auto& id : *ids) {
      auto input = m_store.get_input(id);
      if (!input || input->workspace != workspace)
        return make_error("JOB_INPUT_NOT_FOUND", "job input " + id + " not found", {{"input_id", id}});
      if (input->status != "ready")
        return make_error("JOB_INPUT_NOT_READY", "job input " + id + " is not ready: upload it and complete it first",
                          {{"input_id", id}, {"status", input->status}});
    }
  }
  return Ok{};
}

// The inputs (screening was prepared), then whether the fleet could ever
// run it; only then is anything stored.
Result<SubmitResult> Engine::Impl::submit_new(PreparedSubmit& prepared) {
  SubmitRequest& request = prepared.request;
  if (auto inputs = check_inputs(request.spec, request.workspace); !inputs) return inputs.error();
  const screen::Intent& intent = prepared.screening.intent;
  route::RouteResult route;
  {
    std::lock_guard lock(m_mutex);
    // Only a job that waits is explained now; a placed one is explained by the pass.
    route = route::place(route::RouteRequest{request.spec, intent, nullptr, false}, m_pool.index());
  }
  // A job whose image is still being looked up is judged when the lookup
  // ends (the registry may show ROCm evidence the name lacks).
  if (route.status == route::RouteResult::Status::unavailable && !prepared.image_pending)
    return capacity_error(route, intent, m_fleet.nodes.size());
  double cost = cost_for(likely_price(route), request.spec.gpu_count, estimate_runtime(request.spec).expected_minutes);
  auto job = commit_new_job(new_job(request, now(), cost), prepared, route);
  if (!job) return job.error();
  if (prepared.image_pending) watch_image(job->id, job->spec->image);
  return SubmitResult{std::move(*job), false};
}

// The job and its first three events are queued under the mutex (so their seqs
// reach the store in order) and made durable by flush() outside it, where
// concurrent submits share one transaction. Only then does the scheduler see it.
// A job that the submit's route already found waiting for capacity is noted
// so in the same write (the scheduler would write it a second time).
Result<model::Job> Engine::Impl::commit_new_job(model::Job job, PreparedSubmit& prepared,
                                                const route::RouteResult& route) {
  const std::string id = job.id;
  const bool image_pending = prepared.image_pending;
  job.screening = std::move(prepared.screening_json);
  // Here, in parallel with other submits, not on the writer thread; a store
  // that keeps no job documents never encodes one.
  if (m_store.keeps_job_states()) store::warm_job_encoding(job);
  {
    std::lock_guard lock(m_mutex);
    LiveJob& live = m_live.add(LiveJob{std::move(job), std::move(prepared.screening.intent)});
    live.route_key = std::move(prepared.route_key);
    store::WriteBatch batch;
    m_recorder.event(live, batch,
                     {"job.submitted", "api", "Job submitted: " + live.job.spec->name,
                      std::move(prepared.submitted_data)});
    m_recorder.event(live, batch,
                     {"job.screened", "screener", std::move(prepared.screened_message),
                      std::move(prepared.screened_data), std::move(prepared.screened_level)});
    m_recorder.event(live, batch, {"job.queued", "scheduler", "Waiting for a node",
                                   util::JsonMembers().add("priority", live.job.spec->priority).take()});
    if (image_pending) {
      park_locked(live);
      stage_locked(live, batch);
    } else if (route.status == route::RouteResult::Status::queued) {
      note_waiting_locked(live, route, batch);
    } else {
      stage_locked(live, batch);
    }
    enqueue_locked(std::move(batch));
    if (!m_options.durable_submits && !image_pending) {
      queue_job_locked(live);
      wake_locked();
      return live.job;
    }
  }
  m_store.flush();
  auto stored = m_store.get_job(id);
  std::lock_guard lock(m_mutex);
  LiveJob* live = find_live_locked(id);
  if (!stored) {
    m_live.erase(id);
    return make_error("STORE_WRITE_FAILED", "committing job " + id + " failed: the store did not keep it");
  }
  if (!live) return std::move(*stored);  // cancelled while committing
  if (live->awaiting_image) return live->job;  // queued by watch_image() once the lookup ends
  queue_job_locked(*live);
  wake_locked();
  return live->job;
}

}  // namespace jgrid::engine
