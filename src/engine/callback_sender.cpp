#include "callback_sender.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <set>

#include "jgrid/util/clock.hpp"
#include "jgrid/util/url.hpp"

namespace jgrid::engine {
namespace {

constexpr int k_pass_rows = 64;  // due rows listed per page of a pass

bool is_success(int status) { return status >= 200 && status < 300; }

std::string failure_text(const CallbackResponse& response) {
  if (response.status != 0) return "HTTP " + std::to_string(response.status);
  return response.error.empty() ? "no response" : response.error;
}

// The receiver a URL names, for the per-receiver cap: its host:port.
std::string receiver_of(const std::string& url) {
  auto parsed = util::parse_http_url(url);
  return parsed ? parsed->host + ":" + std::to_string(parsed->port) : url;
}

bool is_control(unsigned char c) { return c < 0x20 || c == 0x7f; }

bool any_of(const std::string& text, bool (*bad)(unsigned char)) {
  return std::any_of(text.begin(), text.end(), [bad](char c) { return bad(static_cast<unsigned char>(c)); });
}

}  // namespace

// What the clock's timer thread shares with the sender: a timer may fire
// after the sender is gone, so it holds this, not the sender.
struct CallbackSender::Shared {
  util::Clock* clock = nullptr;
  std::mutex mutex;
  std::condition_variable cv;       // the dispatcher waits here
  std::condition_variable work_cv;  // the workers wait here
  bool wake = false;
  bool stopping = false;
  bool passing = false;           // the dispatcher runs a pass
  bool held = false;              // the clock is held until nothing is pending
  std::int64_t armed_ms = -1;     // due time of the earliest timer set, -1 none
  std::deque<Work> queue;         // dispatched, waiting for a worker
  int in_flight = 0;              // queued or being attempted
  std::map<std::string, int> receivers;  // host:port -> attempts queued or running
  std::set<std::string> jobs;            // jobs with an attempt queued or running
  // Deliveries queued, running, or finished since the running pass listed
  // its rows (those rows may predate the outcome): never dispatched again.
  std::set<std::string> busy;
  std::vector<std::string> finished;     // leave `busy` when the next pass starts

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
  // Requires `mutex`.
  void release_if_idle_locked() {
    if (!wake && !passing && in_flight == 0 && std::exchange(held, false)) clock->release();
  }
};

struct CallbackSender::Work {
  model::Delivery delivery;
  std::optional<model::CallbackSpec> callback;  // none: the job is gone or names none
  std::string receiver;
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
  m_options.max_in_flight = std::max(m_options.max_in_flight, 1);
  m_options.max_per_receiver = std::max(m_options.max_per_receiver, 1);
}

CallbackSender::~CallbackSender() { stop(); }

void CallbackSender::start() {
  if (m_thread.joinable()) return;
  if (m_options.transport) m_options.transport->resume();
  wake();
  m_thread = std::thread([this] { run(); });
  for (int i = 0; i < m_options.max_in_flight; ++i) m_workers.emplace_back([this] { work(); });
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
    m_shared->work_cv.notify_all();
  }
  if (m_options.transport) m_options.transport->cancel();
  if (m_thread.joinable()) m_thread.join();
  for (auto& worker : m_workers) worker.join();
  m_workers.clear();
  std::lock_guard lock(m_shared->mutex);
  if (std::exchange(m_shared->held, false)) m_clock->release();
}

bool CallbackSender::holding() const {
  std::lock_guard lock(m_shared->mutex);
  return m_shared->held;
}

// One pass at a time; the clock hold taken by wake() is kept while passes
// and attempts follow each other and released when all are done.
void CallbackSender::run() {
  while (true) {
    {
      std::unique_lock lock(m_shared->mutex);
      m_shared->cv.wait(lock, [&] { return m_shared->wake || m_shared->stopping; });
      if (m_shared->stopping) return;
      m_shared->wake = false;
      m_shared->passing = true;
      for (const auto& id : m_shared->finished) m_shared->busy.erase(id);
      m_shared->finished.clear();
    }
    pass();
    std::lock_guard lock(m_shared->mutex);
    m_shared->passing = false;
    m_shared->release_if_idle_locked();
  }
}

// Dispatches every due delivery that has a free slot, page after page;
// arms a timer for the first one not yet due. A finished attempt wakes the
// next pass, which looks again at what this one had to leave.
void CallbackSender::pass() {
  m_store.flush();  // the terminal batches that queued these rows
  std::int64_t now = m_clock->now_ms();
  store::DeliveryCursor after;
  while (true) {
    auto rows = m_store.pending_deliveries(k_pass_rows, after);
    for (auto& delivery : rows) {
      if (delivery.next_attempt_ms > now) {
        arm(delivery.next_attempt_ms);
        return;
      }
      after = {delivery.next_attempt_ms, delivery.id};
      {
        std::lock_guard lock(m_shared->mutex);
        if (m_shared->stopping || m_shared->in_flight >= m_options.max_in_flight) return;
        if (m_shared->busy.count(delivery.id) || m_shared->jobs.count(delivery.job_id)) continue;
      }
      dispatch(std::move(delivery));
    }
    if (static_cast<int>(rows.size()) < k_pass_rows) return;
  }
}

// Queues one delivery for a worker unless its receiver has no free slot.
void CallbackSender::dispatch(model::Delivery delivery) {
  auto job = m_store.get_job(delivery.job_id);
  Work work{std::move(delivery), std::nullopt, ""};
  if (job && job->spec->callback) {
    work.callback = *job->spec->callback;
    work.receiver = receiver_of(work.callback->url);
  }
  std::lock_guard lock(m_shared->mutex);
  Shared& s = *m_shared;
  if (s.receivers[work.receiver] >= m_options.max_per_receiver) return;
  ++s.receivers[work.receiver];
  s.busy.insert(work.delivery.id);
  s.jobs.insert(work.delivery.job_id);
  ++s.in_flight;
  s.queue.push_back(std::move(work));
  s.work_cv.notify_one();
}

// A worker: one attempt at a time; each outcome frees its slots and wakes
// the dispatcher.
void CallbackSender::work() {
  while (true) {
    Work work;
    {
      std::unique_lock lock(m_shared->mutex);
      m_shared->work_cv.wait(lock, [&] { return m_shared->stopping || !m_shared->queue.empty(); });
      if (m_shared->stopping) return;
      work = std::move(m_shared->queue.front());
      m_shared->queue.pop_front();
    }
    attempt(work);
    std::lock_guard lock(m_shared->mutex);
    Shared& s = *m_shared;
    if (--s.receivers[work.receiver] == 0) s.receivers.erase(work.receiver);
    s.jobs.erase(work.delivery.job_id);
    s.finished.push_back(work.delivery.id);
    --s.in_flight;
    s.wake_locked();
  }
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

std::optional<std::string> CallbackSender::unsafe_request(const CallbackRequest& request) {
  if (any_of(request.url, [](unsigned char c) { return is_control(c) || c == ' '; }))
    return "the URL holds a control character or a space";
  for (const auto& [name, value] : request.headers) {
    if (name.empty() || any_of(name, [](unsigned char c) { return is_control(c) || c == ' ' || c == ':'; }))
      return "a header name is empty or holds a control character, a space or a colon";
    if (any_of(value, [](unsigned char c) { return is_control(c) && c != '\t'; }))
      return "the " + name + " header value holds a control character";
  }
  return std::nullopt;
}

CallbackResponse CallbackSender::send(const Work& work) const {
  if (!work.callback) return {0, "the job no longer names a callback"};
  auto request = build_request(work.delivery, *work.callback, m_options.secret, util::wall_now_ms() / 1000);
  if (auto why = unsafe_request(request)) return {0, "not sent: " + *why, "", false, false};
  return m_options.transport->post(request);
}

void CallbackSender::attempt(const Work& work) {
  CallbackResponse response = send(work);
  std::unique_lock lock(m_shared->mutex);
  if (m_shared->stopping && response.status == 0) return;  // cut short by stop(): not an attempt
  model::Delivery delivery = work.delivery;
  ++delivery.attempts;
  CallbackAttempt outcome{delivery, response.status, is_success(response.status) ? "" : failure_text(response),
                          response.truncated};
  model::Delivery& d = outcome.delivery;
  d.last_error = outcome.error;
  if (outcome.error.empty()) {
    d.state = "delivered";
  } else if (d.attempts >= model::k_callback_max_attempts || !response.retry) {
    d.state = "failed";
  } else {
    double unit = std::uniform_real_distribution<double>(0.0, 1.0)(m_random);
    d.next_attempt_ms = m_clock->now_ms() + model::callback_retry_delay_ms(d.attempts, m_options.backoff_base_ms, unit);
  }
  lock.unlock();
  m_record(outcome);
}

}  // namespace jgrid::engine
