// docs/api.md §2.7: a job's events as pages, and every event of the server as SSE.
#include "api/errors.hpp"
#include "api/handlers.hpp"
#include "api/metrics.hpp"
#include "api/params.hpp"
#include "api/sse.hpp"
#include "jgrid/util/strings.hpp"
#include "jgrid/util/time.hpp"

namespace jgrid::api {
namespace {

constexpr int k_stream_page = 500;

Result<store::EventQuery> event_query(const Call& call, const std::string& job_id) {
  auto limit = limit_param(call, 100, 1000);
  if (!limit) return limit.error();
  auto cursor = sequence_cursor(call, "cursor");
  if (!cursor) return cursor.error();
  auto since = since_param(call);
  if (!since) return since.error();
  return store::EventQuery{job_id, *cursor, call.param("type").value_or(""), *since, *limit + 1};
}

// Node events are for everyone; a job's events only for its workspace
// (every job is in "local" while auth is off).
bool visible(const Context& ctx, const model::Event& event, const std::string& workspace) {
  if (event.job_id.empty() || !ctx.options.auth.keys_required) return true;
  auto job = ctx.store.get_job(event.job_id);
  return job && job->workspace == workspace;
}

// Sends every event after `after`, then follows new ones until the client
// leaves or the server stops.
void follow_events(const Context& ctx, std::int64_t after, const std::string& workspace, const ChunkWriter& write) {
  Pacer pacer(ctx, write);
  while (true) {
    std::uint64_t seen = pacer.version();
    auto events = ctx.store.list_events({"", after, "", 0, k_stream_page});
    for (const auto& event : events) {
      after = event.seq;
      if (!visible(ctx, event, workspace)) continue;
      if (!write(sse_event(event.seq, event.type, model::event_to_api(event)))) return;
    }
    if (events.size() == static_cast<std::size_t>(k_stream_page)) continue;
    auto wake = pacer.wait(seen);
    if (wake == Pacer::Wake::stopping) return;
    if (wake == Pacer::Wake::heartbeat && !write(sse_event(after, "heartbeat", Json::object()))) return;
  }
}

}  // namespace

Result<Json> get_job_events(const Context& ctx, const Call& call) {
  auto job = find_job(ctx, call);
  if (!job) return job.error();
  auto query = event_query(call, job->id);
  if (!query) return query.error();
  auto events = ctx.store.list_events(*query);
  bool more = events.size() > static_cast<std::size_t>(query->limit - 1);
  if (more) events.pop_back();
  Json items = Json::array();
  for (const auto& event : events) items.push_back(model::event_to_api(event));
  Json next = events.empty() ? (query->after_seq > 0 ? Json(std::to_string(query->after_seq)) : Json(nullptr))
                             : Json(std::to_string(events.back().sequence));
  return Json{{"job_id", job->id},
              {"status", model::to_string(job->status)},
              {"phase", model::to_string(job->phase)},
              {"generated_at", util::format_time(ctx.now_ms())},
              {"items", std::move(items)},
              {"next_cursor", std::move(next)},
              {"has_more", more}};
}

// Without Last-Event-ID (or ?after=) the stream starts at the present: only
// new events are sent.
Result<Reply> stream_events(const Context& ctx, const Call& call) {
  std::string resume = !call.last_event_id.empty() ? call.last_event_id : call.param("after").value_or("");
  auto after = resume_point(resume, ctx.store.counters().max_event_seq, "Last-Event-ID");
  if (!after) return after.error();
  Reply reply;
  add_stream_headers(reply);
  reply.stream = [&ctx, after = *after, workspace = workspace_of(call)](const ChunkWriter& write) {
    SseSubscriber subscriber("events");
    follow_events(ctx, after, workspace, write);
  };
  return reply;
}

}  // namespace jgrid::api
