#include "callback_sender.hpp"

#include <condition_variable>
#include <mutex>

#include "jgrid/util/clock.hpp"

namespace jgrid::engine {
namespace {

constexpr int k_pass_rows = 64;  // due rows listed per pass

bool is_success(int status) { return status >= 200 && status < 300; }

std::string failure_text(const CallbackResponse& response) {
  if (response.status != 0) return "HTTP " + std::to_string(response.status);
  return response.error.empty() ? "no response" : response.error;
}

}  // namespace

// What the clock's timer thread shares with the sender: a timer may fire
// after the sender is gone, so it holds this, not the sender.
struct CallbackSender::Shared {
  util::Clock* clock = nullptr;
  std::mutex mutex;
  std::condition_variable cv;
  bool wake = false;
  bool stopping = false;
  bool held = false;              // the clock is held until the next pass ends
  std::int64_t armed_ms = -1;     // due time of the earliest timer set, -1 none

  // Requires `mutex`.
  void wake_locked() {
    if (stopping) return;
    wake = true;
    if (!held) {
      clock->hold();
      held = true;
    }
    cv.notify_all();
  }
};

CallbackSender::CallbackSender(store::Store& store, std::shared_ptr<util::Clock> clock, SenderOptions options,
                               std::function<void(const CallbackAttempt&)> record)
    : m_store(store),
      m_clock(std::move(clock)),
      m_options(std::move(options)),
      m_record(std::move(record)),
      m_shared(std::make_shared<Shared>()),
      m_random(m_options.seed) {
  m_shared->clock = m_clock.get();
}

CallbackSender::~CallbackSender() { stop(); }

void CallbackSender::start() {
  if (m_thread.joinable()) return;
  if (m_options.transport) m_options.transport->resume();
  wake();
  m_thread = std::thread([this] { run(); });
}

void CallbackSender::wake() {
  std::lock_guard lock(m_shared->mutex);
  m_shared->wake_locked();
}

void CallbackSender::stop() {
  {
    std::lock_guard lock(m_shared->mutex);
    m_shared->stopping = true;
    m_shared->cv.notify_all();
  }
  if (m_options.transport) m_options.transport->cancel();
  if (m_thread.joinable()) m_thread.join();
  std::lock_guard lock(m_shared->mutex);
  if (std::exchange(m_shared->held, false)) m_clock->release();
}

bool CallbackSender::holding() const {
  std::lock_guard lock(m_shared->mutex);
  return m_shared->held;
}

// One pass at a time; the clock hold taken by wake() is kept while passes
// follow each other and released when the sender goes back to waiting.
void CallbackSender::run() {
  while (true) {
    {
      std::unique_lock lock(m_shared->mutex);
      m_shared->cv.wait(lock, [&] { return m_shared->wake || m_shared->stopping; });
      if (m_shared->stopping) return;
      m_shared->wake = false;
    }
    bool again = pass();
    std::lock_guard lock(m_shared->mutex);
    if (again) m_shared->wake_locked();
    if (!m_shared->wake && std::exchange(m_shared->held, false)) m_clock->release();
  }
}

// Attempts every due delivery; arms a timer for the first one not yet due.
// True when it attempted something (the next pass lists the rows again).
bool CallbackSender::pass() {
  m_store.flush();  // the terminal batches that queued these rows
  bool attempted = false;
  std::int64_t now = m_clock->now_ms();
  for (auto& delivery : m_store.pending_deliveries(k_pass_rows)) {
    {
      std::lock_guard lock(m_shared->mutex);
      if (m_shared->stopping) return false;
    }
    if (delivery.next_attempt_ms > now) {
      arm(delivery.next_attempt_ms);
      return attempted;
    }
    attempt(std::move(delivery));
    attempted = true;
  }
  return attempted;
}

void CallbackSender::arm(std::int64_t due_ms) {
  {
    std::lock_guard lock(m_shared->mutex);
    if (m_shared->armed_ms != -1 && m_shared->armed_ms <= due_ms) return;
    m_shared->armed_ms = due_ms;
  }
  m_clock->schedule(due_ms, [shared = m_shared, due_ms] {
    std::lock_guard lock(shared->mutex);
    if (shared->armed_ms == due_ms) shared->armed_ms = -1;
    shared->wake_locked();
  });
}

CallbackRequest CallbackSender::build_request(const model::Delivery& delivery, const model::CallbackSpec& callback,
                                              const std::string& server_secret, std::int64_t unix_s) {
  const std::string& key = callback.auth_token.empty() ? server_secret : callback.auth_token;
  CallbackRequest request{callback.url, {}, delivery.body};
  request.headers = {{"User-Agent", std::string("jgrid-local/") + JGRID_VERSION},
                     {"X-JGrid-Event", delivery.event},
                     {"X-JGrid-Delivery", delivery.id},
                     {"X-JGrid-Signature", model::callback_signature(key, unix_s, delivery.body)}};
  if (!callback.auth_token.empty()) request.headers["Authorization"] = "Bearer " + callback.auth_token;
  return request;
}

void CallbackSender::attempt(model::Delivery delivery) {
  auto job = m_store.get_job(delivery.job_id);
  CallbackResponse response{0, "the job no longer names a callback"};
  if (job && job->spec->callback)
    response = m_options.transport->post(
        build_request(delivery, *job->spec->callback, m_options.secret, util::wall_now_ms() / 1000));
  {
    std::lock_guard lock(m_shared->mutex);
    if (m_shared->stopping && response.status == 0) return;  // cut short by stop(): not an attempt
  }
  ++delivery.attempts;
  CallbackAttempt outcome{delivery, response.status, is_success(response.status) ? "" : failure_text(response)};
  model::Delivery& d = outcome.delivery;
  d.last_error = outcome.error;
  if (outcome.error.empty()) {
    d.state = "delivered";
  } else if (d.attempts >= model::k_callback_max_attempts) {
    d.state = "failed";
  } else {
    double unit = std::uniform_real_distribution<double>(0.0, 1.0)(m_random);
    d.next_attempt_ms = m_clock->now_ms() + model::callback_retry_delay_ms(d.attempts, m_options.backoff_base_ms, unit);
  }
  m_record(outcome);
}

}  // namespace jgrid::engine
