#pragma once
// The callback sender (docs/api.md §5): a dispatcher thread that lists the
// outbox's due deliveries and a small pool of workers that POST them, sign
// each attempt, and hand every outcome to the engine, which records it
// (outbox row, job.callback, event) in one transaction. Retries follow
// model::callback_retry_delay_ms on the engine's clock, so a virtual or
// scaled clock drives the backoff too.
//
// The outbox is the only queue: a pass lists the due rows from the store,
// so deliveries left pending by a previous process go out after start().
// An attempt cut short by stop() is not counted; it is made again later.
//
// Invariants: at most `max_in_flight` attempts run at once, at most
// `max_per_receiver` of them to one receiver (the URL's host:port), and at
// most one per job, so a slow receiver holds its own slots only and a job's
// deliveries go out one after the other. A delivery is never attempted
// twice at once, nor again before its last outcome is durable.
//
// Thread-safe: wake() and stop() may be called from any thread.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "jgrid/engine/callback_transport.hpp"
#include "jgrid/model/delivery.hpp"
#include "jgrid/store/store.hpp"
#include "jgrid/util/clock.hpp"

namespace jgrid::engine {

struct CallbackAttempt {
  model::Delivery delivery;  // after the attempt: attempts, state, next_attempt_ms, last_error
  int status_code = 0;       // 0: no response
  std::string error;         // "" when delivered
  bool reply_truncated = false;  // the reply body was cut (too long, or still arriving at the deadline)
};

struct SenderOptions {
  std::shared_ptr<CallbackTransport> transport;
  std::string secret;        // key for jobs without their own auth token
  std::int64_t backoff_base_ms = model::k_callback_backoff_base_ms;
  std::uint64_t seed = 0;    // jitter draws
  int max_in_flight = 8;     // attempts at once, over all receivers (also the number of workers)
  int max_per_receiver = 2;  // attempts at once to one host:port
};

class CallbackSender {
 public:
  // `record` runs on a worker thread after each attempt (on several at
  // once) and returns once the outcome is durable.
  CallbackSender(store::Store& store, std::shared_ptr<util::Clock> clock, SenderOptions options,
                 std::function<void(const CallbackAttempt&)> record);
  ~CallbackSender();
  CallbackSender(const CallbackSender&) = delete;
  CallbackSender& operator=(const CallbackSender&) = delete;

  // Starts the threads; the first pass resumes what the outbox holds.
  void start();
  // Something was queued for the outbox: look again. A virtual clock is held
  // until that pass and the attempts it started are done.
  void wake();
  // Cancels the attempts in flight and joins the threads. Idempotent.
  void stop();
  // True while a pass is pending or running or an attempt is in flight (and
  // holds a virtual clock).
  bool holding() const;

  // The request of one attempt of `delivery` for a job whose callback is
  // `callback`, signed at `unix_s` (exposed for tests).
  static CallbackRequest build_request(const model::Delivery& delivery, const model::CallbackSpec& callback,
                                       const std::string& server_secret, std::int64_t unix_s);
  // Why `request` must not be sent, or nullopt: a URL or a header name or
  // value holding a control character (CR and LF would let it write
  // headers or requests of its own), or a space in the URL.
  static std::optional<std::string> unsafe_request(const CallbackRequest& request);

 private:
  struct Shared;
  struct Work;
  void run();
  void pass();
  void dispatch(model::Delivery delivery);
  void work();
  void attempt(const Work& work);
  CallbackResponse send(const Work& work) const;
  void arm(std::int64_t due_ms);

  store::Store& m_store;
  std::shared_ptr<util::Clock> m_clock;
  SenderOptions m_options;
  std::function<void(const CallbackAttempt&)> m_record;
  std::shared_ptr<Shared> m_shared;
  std::mt19937_64 m_random;  // guarded by m_shared->mutex
  std::thread m_thread;
  std::vector<std::thread> m_workers;
};

}  // namespace jgrid::engine
