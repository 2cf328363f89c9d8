// docs/api.md §2.5 (log pages) and §2.6 (live logs over SSE).
#include "api/errors.hpp"
#include "api/handlers.hpp"
#include "api/metrics.hpp"
#include "api/params.hpp"
#include "api/sse.hpp"
#include "api/subscriber_slots.hpp"
#include "jgrid/util/strings.hpp"

namespace jgrid::api {
namespace {

constexpr int k_max_page = 1000;

Result<std::string> stream_param(const Call& call) {
  std::string stream = util::to_lower(call.param("stream").value_or("all"));
  if (stream.empty()) return std::string("all");
  if (stream == "all" || stream == "stdout" || stream == "stderr") return stream;
  return invalid_request("stream: expected stdout, stderr or all, got '" + stream + "'", "stream");
}

std::string last_line(const std::string& text) {
  auto end = text.find_last_not_of("\r\n");
  if (end == std::string::npos) return "";
  auto start = text.find_last_of('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1) + 1);
}

std::string failure_highlight(const model::Job& job) {
  if (job.status == model::JobStatus::rejected) return job.status_message;
  if (job.status != model::JobStatus::failed) return "";
  std::string line = last_line(job.stderr_tail);
  if (!line.empty()) return line;
  return job.failure ? job.failure->summary : job.status_message;
}

std::string usage_hint(const model::Job& job, bool empty) {
  if (empty && !job.started_ms && !model::is_terminal(job.status))
    return "the job has not started yet: follow GET /v1/jobs/" + job.id + "/events for its progress";
  return "poll with cursor=<next_cursor> for new lines, or stream GET /v1/jobs/" + job.id + "/logs/live";
}

Result<store::LogQuery> log_query(const Call& call, const std::string& job_id) {
  auto limit = limit_param(call, 100, k_max_page);
  if (!limit) return limit.error();
  auto cursor = sequence_cursor(call, "cursor");
  if (!cursor) return cursor.error();
  auto tail = tail_param(call, k_max_page);
  if (!tail) return tail.error();
  auto stream = stream_param(call);
  if (!stream) return stream.error();
  store::LogQuery query{job_id, *cursor, *stream, *tail ? **tail : *limit + 1, *tail};
  return query;
}

// Replays the stored lines of one job, then follows it until it is terminal.
class LogStream {
 public:
  LogStream(const Context& ctx, std::string job_id, std::int64_t after, const ChunkWriter& write)
      : m_ctx(ctx), m_job_id(std::move(job_id)), m_last(after), m_write(write), m_pacer(ctx, write) {}

  void run() {
    while (true) {
      std::uint64_t seen = m_pacer.version();
      auto job = m_ctx.store.get_job(m_job_id);
      if (!job || !send_status(*job) || !send_lines()) return;
      if (model::is_terminal(job->status)) return send_terminal(*job);
      auto wake = m_pacer.wait(seen);
      if (wake == Pacer::Wake::stopping) return;
      if (wake == Pacer::Wake::heartbeat && !send("heartbeat", Json::object())) return;
    }
  }

 private:
  bool send(std::string_view type, const Json& data) { return m_write(sse_event(m_last, type, data)); }

  bool send_status(const model::Job& job) {
    std::string key = std::string(model::to_string(job.status)) + "/" + std::string(model::to_string(job.phase));
    if (key == m_status_key) return true;
    m_status_key = key;
    return send("status", {{"status", model::to_string(job.status)}, {"phase", model::to_string(job.phase)}});
  }

  bool send_line(const model::LogEntry& entry) {
    m_last = entry.sequence;
    if (entry.stream == "stdout" || entry.stream == "stderr") return send(entry.stream, {{"text", entry.message + "\n"}});
    return send("notice", {{"message", entry.message}});
  }

  bool send_lines() {
    while (true) {
      auto lines = m_ctx.store.list_logs({m_job_id, m_last, "all", k_max_page, std::nullopt});
      for (const auto& line : lines)
        if (!send_line(line)) return false;
      if (lines.size() < static_cast<std::size_t>(k_max_page)) return true;
    }
  }

  // Lines are committed before the terminal status, so one more read after
  // seeing it gets everything.
  void send_terminal(const model::Job& job) {
    if (!send_lines()) return;
    send("terminal", {{"status", model::to_string(job.status)},
                      {"exit_code", job.exit_code ? Json(*job.exit_code) : Json(nullptr)},
                      {"timed_out", job.timed_out}});
  }

  const Context& m_ctx;
  std::string m_job_id;
  std::int64_t m_last;
  const ChunkWriter& m_write;
  Pacer m_pacer;
  std::string m_status_key;
};

}  // namespace

Result<Json> get_logs(const Context& ctx, const Call& call) {
  auto job = find_job(ctx, call);
  if (!job) return job.error();
  auto query = log_query(call, job->id);
  if (!query) return query.error();
  auto entries = ctx.store.list_logs(*query);
  bool more = !query->tail && entries.size() > static_cast<std::size_t>(query->limit - 1);
  if (more) entries.pop_back();
  Json items = Json::array();
  for (const auto& entry : entries) items.push_back(model::log_entry_to_api(entry));
  Json next = entries.empty() ? (query->after_sequence > 0 ? Json(std::to_string(query->after_sequence)) : Json(nullptr))
                              : Json(std::to_string(entries.back().sequence));
  return Json{{"job_id", job->id},
              {"items", std::move(items)},
              {"next_cursor", std::move(next)},
              {"has_more", more},
              {"failure_highlight", failure_highlight(*job)},
              {"usage_hint", usage_hint(*job, entries.empty())}};
}

Result<Reply> stream_logs(const Context& ctx, const Call& call) {
  auto job = find_job(ctx, call);
  if (!job) return job.error();
  bool by_header = !call.last_event_id.empty();
  auto after = resume_point(by_header ? call.last_event_id : call.param("cursor").value_or(""), 0,
                            by_header ? "Last-Event-ID" : "cursor");
  if (!after) return after.error();
  auto slot = ctx.subscribers ? ctx.subscribers->acquire(job->id) : Result<std::shared_ptr<void>>(std::shared_ptr<void>());
  if (!slot) return slot.error();
  Reply reply;
  add_stream_headers(reply);
  reply.stream = [&ctx, id = job->id, after = *after, slot = std::move(*slot)](const ChunkWriter& write) {
    SseSubscriber subscriber("logs");
    LogStream(ctx, id, after, write).run();
  };
  return reply;
}

}  // namespace jgrid::api
