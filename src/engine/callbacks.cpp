// Callbacks (docs/api.md §5): the sender's wiring and the record of each attempt.
#include <cstdio>

#include "engine_metrics.hpp"
#include "impl.hpp"
#include "jgrid/util/time.hpp"

namespace jgrid::engine {
namespace {

std::string seconds_text(std::int64_t ms) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f s", static_cast<double>(ms) / 1000.0);
  return text;
}

std::string attempt_text(const model::Delivery& d) {
  return "attempt " + std::to_string(d.attempts) + " of " + std::to_string(model::k_callback_max_attempts);
}

// The event of one attempt: delivered (info), failed with a retry to come
// (warning), or failed for good (error).
EventSpec attempt_event(const CallbackAttempt& a, const std::string& url, std::int64_t now_ms) {
  const model::Delivery& d = a.delivery;
  nlohmann::json data = {{"delivery_id", d.id}, {"attempt", d.attempts}, {"max_attempts", model::k_callback_max_attempts},
                         {"url", url},          {"event", d.event},     {"state", d.state}};
  data["status_code"] = a.status_code ? nlohmann::json(a.status_code) : nlohmann::json(nullptr);
  if (a.reply_truncated) data["reply_truncated"] = true;
  std::string cut = a.reply_truncated ? "; reply body cut" : "";
  if (d.state == "delivered")
    return {"job.callback_delivered", "callback",
            "Callback delivered to " + url + " (HTTP " + std::to_string(a.status_code) + ", " + attempt_text(d) + cut +
                ")",
            data};
  data["error"] = a.error;
  if (d.state == "failed")
    return {"job.callback_failed", "callback",
            "Callback to " + url + " failed for good: " + a.error + " (" + attempt_text(d) + ")", data, "error"};
  data["next_attempt_at"] = util::format_time(d.next_attempt_ms);
  return {"job.callback_failed", "callback",
          "Callback to " + url + " failed: " + a.error + " (" + attempt_text(d) + "); retrying in " +
              seconds_text(d.next_attempt_ms - now_ms),
          data, "warning"};
}

const char* metric_result(const model::Delivery& d) {
  if (d.state == "delivered") return "delivered";
  return d.state == "failed" ? "failed" : "retried";
}

}  // namespace

void Engine::Impl::start_callbacks_locked() {
  if (!m_options.callback_transport) return;
  SenderOptions options{m_options.callback_transport, m_options.callback_secret, m_options.callback_backoff_base_ms,
                        m_fleet.seed};
  m_sender = std::make_unique<CallbackSender>(m_store, m_clock, std::move(options),
                                              [this](const CallbackAttempt& a) { record_callback_attempt(a); });
  m_sender->start();
}

// The job is terminal, so nothing else writes it: its stored document is
// current once the queue is flushed (the sender flushed before attempting).
// A job that a simulation reset deleted meanwhile leaves no row behind.
void Engine::Impl::record_callback_attempt(const CallbackAttempt& a) {
  record_callback(metric_result(a.delivery));
  {
    std::lock_guard lock(m_mutex);
    store::WriteBatch batch;
    if (auto job = m_store.get_job(a.delivery.job_id)) {
      batch.deliveries.push_back(a.delivery);
      LiveJob holder{std::move(*job)};
      holder.event_sequence = m_store.max_event_sequence(holder.job.id);
      std::string url = holder.job.spec->callback ? holder.job.spec->callback->url : "";
      holder.job.callback = model::CallbackState{url, a.delivery.state,
                                                 a.delivery.attempts, a.error};
      m_recorder.event(holder, batch, attempt_event(a, url, now()));
      batch.jobs.push_back(std::move(holder.job));
    }
    m_store.commit_async(std::move(batch));
  }
  m_store.flush();
}

}  // namespace jgrid::engine
