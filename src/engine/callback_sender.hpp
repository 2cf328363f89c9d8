#pragma once
// The callback sender (docs/api.md §5): one thread that POSTs the outbox's
// pending deliveries when they are due, signs each attempt, and hands every
// outcome to the engine, which records it (outbox row, job.callback, event)
// in one transaction. Retries follow model::callback_retry_delay_ms on the
// engine's clock, so a virtual or scaled clock drives the backoff too.
//
// The outbox is the only queue: a pass lists the due rows from the store,
// so deliveries left pending by a previous process go out after start().
// An attempt cut short by stop() is not counted; it is made again later.
//
// Thread-safe: wake() and stop() may be called from any thread.
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <thread>

#include "jgrid/engine/callback_transport.hpp"
#include "jgrid/model/delivery.hpp"
#include "jgrid/store/store.hpp"
#include "jgrid/util/clock.hpp"

namespace jgrid::engine {

struct CallbackAttempt {
  model::Delivery delivery;  // after the attempt: attempts, state, next_attempt_ms, last_error
  int status_code = 0;       // 0: no response
  std::string error;         // "" when delivered
};

struct SenderOptions {
  std::shared_ptr<CallbackTransport> transport;
  std::string secret;        // key for jobs without their own auth token
  std::int64_t backoff_base_ms = model::k_callback_backoff_base_ms;
  std::uint64_t seed = 0;    // jitter draws
};

class CallbackSender {
 public:
  // `record` runs on the sender thread after each attempt and returns once
  // the outcome is durable.
  CallbackSender(store::Store& store, std::shared_ptr<util::Clock> clock, SenderOptions options,
                 std::function<void(const CallbackAttempt&)> record);
  ~CallbackSender();
  CallbackSender(const CallbackSender&) = delete;
  CallbackSender& operator=(const CallbackSender&) = delete;

  // Starts the thread; its first pass resumes what the outbox holds.
  void start();
  // Something was queued for the outbox: look again. A virtual clock is held
  // until that pass is done.
  void wake();
  // Cancels an attempt in flight and joins the thread. Idempotent.
  void stop();
  // True while a pass is pending or running (and holds a virtual clock).
  bool holding() const;

  // The request of one attempt of `delivery` for a job whose callback is
  // `callback`, signed at `unix_s` (exposed for tests).
  static CallbackRequest build_request(const model::Delivery& delivery, const model::CallbackSpec& callback,
                                       const std::string& server_secret, std::int64_t unix_s);

 private:
  struct Shared;
  void run();
  bool pass();
  void attempt(model::Delivery delivery);
  void arm(std::int64_t due_ms);

  store::Store& m_store;
  std::shared_ptr<util::Clock> m_clock;
  SenderOptions m_options;
  std::function<void(const CallbackAttempt&)> m_record;
  std::shared_ptr<Shared> m_shared;
  std::mt19937_64 m_random;
  std::thread m_thread;
};

}  // namespace jgrid::engine
