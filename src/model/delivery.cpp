#include "jgrid/model/delivery.hpp"

#include <algorithm>
#include <cmath>

#include "jgrid/util/crypto.hpp"
#include "jgrid/util/saturating.hpp"

namespace jgrid::model {

Delivery make_delivery(const Job& job, std::string id, std::int64_t now_ms, double lifetime_spent_usd) {
  Json api = job_to_api(job, Framing::plain, now_ms, lifetime_spent_usd);
  std::string event = "job." + std::string(to_string(job.status));
  Json body = {{"event", event},
               {"job_id", job.id},
               {"status", api["status"]},
               {"status_reason", api["status_reason"]},
               {"exit_code", api["exit_code"]},
               {"timed_out", api["timed_out"]},
               {"completed_at", api.value("completed_at", Json())},
               {"metadata", job.spec->callback ? job.spec->callback->metadata : Json::object()},
               {"job", std::move(api)}};
  if (job.diagnosis && job.status == JobStatus::failed) body["diagnosis"] = diagnosis_to_json(*job.diagnosis);
  Delivery delivery;
  delivery.id = std::move(id);
  delivery.job_id = job.id;
  delivery.event = std::move(event);
  delivery.body = body.dump();
  delivery.next_attempt_ms = now_ms;
  delivery.created_ms = now_ms;
  return delivery;
}

std::int64_t callback_retry_delay_ms(int attempt, std::int64_t base_ms, double unit) {
  int doublings = std::clamp(attempt - 1, 0, 30);
  double nominal = static_cast<double>(base_ms) * std::ldexp(1.0, doublings);
  double factor = 0.8 + 0.4 * std::clamp(unit, 0.0, 1.0);
  return util::saturated_int64(nominal * factor);
}

std::string callback_signature(const std::string& key, std::int64_t unix_s, const std::string& body) {
  std::string t = std::to_string(unix_s);
  return "t=" + t + ",v1=" + util::hmac_sha256_hex(key, t + "." + body);
}

}  // namespace jgrid::model
