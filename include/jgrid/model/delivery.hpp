#pragma once
// Delivery: one callback POST owed for a job's terminal transition (docs/api.md
// §5), as kept in the outbox. The body is frozen when the job ends; only
// the attempt bookkeeping changes afterwards. Plain value type.
#include <cstdint>
#include <string>

#include "jgrid/model/job.hpp"

namespace jgrid::model {

inline constexpr int k_callback_max_attempts = 8;
inline constexpr std::int64_t k_callback_backoff_base_ms = 1000;

struct Delivery {
  std::string id;                 // dlv_…, sent as X-JGrid-Delivery
  std::string job_id;
  std::string event;              // job.completed, job.failed, job.rejected, job.cancelled
  std::string body;               // the JSON sent on every attempt, byte for byte
  std::string state = "pending";  // pending | delivered | failed
  int attempts = 0;               // attempts made so far
  std::int64_t next_attempt_ms = 0;  // clock time of the next attempt (pending only)
  std::int64_t created_ms = 0;
  std::string last_error;         // "" or what the last failed attempt got
};

// The delivery owed for `job`, which has just ended (its status terminal
// and it names a callback): body {event, job_id, status, status_reason,
// exit_code, timed_out, completed_at, metadata, job}, first attempt at
// `now_ms`. `id` is the delivery id to use; `lifetime_spent_usd` goes to
// the job object's account_billing (see job_to_api_json).
Delivery make_delivery(const Job& job, std::string id, std::int64_t now_ms, double lifetime_spent_usd);

// Wait before attempt `attempt + 1` after attempt `attempt` (1-based)
// failed: base · 2^(attempt-1), scaled by (0.8 + 0.4 · unit) for ±20%
// jitter, where `unit` ∈ [0, 1) is a random draw.
std::int64_t callback_retry_delay_ms(int attempt, std::int64_t base_ms, double unit);

// "t=<unix_s>,v1=<hex HMAC-SHA256(key, "<unix_s>.<body>")>".
std::string callback_signature(const std::string& key, std::int64_t unix_s, const std::string& body);

}  // namespace jgrid::model
