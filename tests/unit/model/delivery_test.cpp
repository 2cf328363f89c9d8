#include "jgrid/model/delivery.hpp"

#include <catch2/catch.hpp>

#include "job_fixture.hpp"

using namespace jgrid::model;

TEST_CASE("model::callback_signature is t=<s>,v1=<HMAC-SHA256 of \"<t>.<body>\">", "[model][callback]") {
  // python3: hmac.new(b'tok', b'1700000000.{"a":1}', hashlib.sha256).hexdigest()
  CHECK(callback_signature("tok", 1'700'000'000, R"({"a":1})") ==
        "t=1700000000,v1=cac0e8074890c8e5a05510f8ce95268ab8e908b2d16a5a025f77e69a2167c43c");
  CHECK(callback_signature("other", 1'700'000'000, R"({"a":1})") !=
        callback_signature("tok", 1'700'000'000, R"({"a":1})"));
  CHECK(callback_signature("tok", 1'700'000'001, R"({"a":1})") !=
        callback_signature("tok", 1'700'000'000, R"({"a":1})"));
}

TEST_CASE("model::callback_retry_delay_ms doubles from the base with ±20% jitter", "[model][callback]") {
  // Without jitter (unit 0.5): 1, 2, 4, … 64 s after attempts 1..7 (the 8th is the last).
  std::int64_t expected = 1000;
  for (int attempt = 1; attempt < k_callback_max_attempts; ++attempt, expected *= 2) {
    CHECK(callback_retry_delay_ms(attempt, 1000, 0.5) == expected);
    CHECK(callback_retry_delay_ms(attempt, 1000, 0.0) == expected * 8 / 10);
    CHECK(callback_retry_delay_ms(attempt, 1000, 1.0) == expected * 12 / 10);
  }
  CHECK(callback_retry_delay_ms(3, 10, 0.5) == 40);  // the base is a parameter (tests use small ones)
  CHECK(callback_retry_delay_ms(0, 1000, 0.5) == 1000);
  CHECK(callback_retry_delay_ms(1, 1000, 7.0) == 1200);  // draws are clamped to [0, 1]
}

TEST_CASE("model::make_delivery freezes the §5 body of a terminal job", "[model][callback]") {
  Job job = test::queued_job();
  job.spec.edit().callback = CallbackSpec{"http://127.0.0.1:9/hook", "tok", Json{{"ticket", "T-1"}}};
  job.status = JobStatus::completed;
  job.phase = Phase::done;
  job.exit_code = 0;
  job.completed_ms = test::k_t0 + 5000;
  job.status_reason = "exit 0";
  Delivery d = make_delivery(job, "dlv_1", test::k_t0 + 5000, 12.346);
  CHECK(d.id == "dlv_1");
  CHECK(d.job_id == job.id);
  CHECK(d.event == "job.completed");
  CHECK(d.state == "pending");
  CHECK(d.attempts == 0);
  CHECK(d.next_attempt_ms == test::k_t0 + 5000);
  Json body = Json::parse(d.body);
  CHECK(body["event"] == "job.completed");
  CHECK(body["job_id"] == job.id);
  CHECK(body["status"] == "completed");
  CHECK(body["status_reason"] == "exit 0");
  CHECK(body["exit_code"] == 0);
  CHECK(body["timed_out"] == false);
  CHECK(body["completed_at"].is_string());
  CHECK(body["metadata"] == Json{{"ticket", "T-1"}});
  CHECK(body["job"]["job_id"] == job.id);
  CHECK(body["job"]["callback"]["url"] == "http://127.0.0.1:9/hook");
  CHECK(body["job"]["account_billing"]["lifetime_total_spent_usd"] == 12.35);
  CHECK(d.body.find("tok") == std::string::npos);  // the token is never in the body
}
