#include "engine/callback_sender.hpp"

#include <mutex>

#include "engine_fixture.hpp"
#include "jgrid/util/crypto.hpp"

using namespace jgrid;
using jgrid::engine::CallbackAttempt;
using jgrid::engine::CallbackRequest;
using jgrid::engine::CallbackResponse;
using jgrid::engine::CallbackSender;

namespace {

// Answers each post with the next scripted status (the last one repeats)
// and notes the clock time of every post.
class ScriptedTransport final : public engine::CallbackTransport {
 public:
  ScriptedTransport(std::vector<int> statuses, const util::Clock& clock) : m_statuses(std::move(statuses)), m_clock(clock) {}
  CallbackResponse post(const CallbackRequest& request) override {
    std::lock_guard lock(m_mutex);
    requests.push_back(request);
    times.push_back(m_clock.now_ms());
    int status = m_statuses[std::min(requests.size(), m_statuses.size()) - 1];
    return {status, status ? "" : "connection refused"};
  }
  void cancel() override {}
  void resume() override {}
  std::vector<CallbackRequest> requests;
  std::vector<std::int64_t> times;

 private:
  std::mutex m_mutex;
  std::vector<int> m_statuses;
  const util::Clock& m_clock;
};

struct SenderFixture {
  explicit SenderFixture(std::vector<int> statuses, std::string token = "") {
    auto opened = store::Store::open({});
    REQUIRE(opened);
    store = std::move(opened).value();
    model::Job job;
    job.id = "job_1";
    job.status = model::JobStatus::completed;
    job.spec.edit().callback = model::CallbackSpec{"http://127.0.0.1:9/hook", std::move(token), model::Json::object()};
    store::WriteBatch batch;
    batch.jobs.push_back(job);
    batch.deliveries.push_back(model::make_delivery(job, "dlv_1", clock->now_ms(), 0));
    REQUIRE(store->commit(batch).ok());
    transport = std::make_shared<ScriptedTransport>(std::move(statuses), *clock);
    engine::SenderOptions options{transport, "server-secret", 1000, 7};
    sender = std::make_unique<CallbackSender>(*store, clock, options, [this](const CallbackAttempt& a) {
      store::WriteBatch update;
      update.deliveries.push_back(a.delivery);
      REQUIRE(store->commit(update).ok());
      std::lock_guard lock(mutex);
      attempts.push_back(a);
    });
  }
  ~SenderFixture() { sender->stop(); }

  std::shared_ptr<util::Clock> clock = util::make_virtual_clock();
  std::unique_ptr<store::Store> store;
  std::shared_ptr<ScriptedTransport> transport;
  std::unique_ptr<CallbackSender> sender;
  std::mutex mutex;
  std::vector<CallbackAttempt> attempts;
};

bool verifies(const CallbackRequest& request, const std::string& key) {
  const std::string& header = request.headers.at("X-JGrid-Signature");
  auto comma = header.find(",v1=");
  std::string t = header.substr(2, comma - 2);
  return util::hmac_sha256_hex(key, t + "." + request.body) == header.substr(comma + 4);
}

}  // namespace

TEST_CASE("engine::CallbackSender retries 8 times on the clock with doubling jittered waits", "[engine][callback]") {
  SenderFixture f({500});
  f.sender->start();
  REQUIRE(test::eventually([&] {
    std::lock_guard lock(f.mutex);
    return f.attempts.size() == 8;
  }));
  f.clock->wait_idle();
  REQUIRE(f.transport->times.size() == 8);
  for (std::size_t i = 1; i < 8; ++i) {
    std::int64_t nominal = 1000LL << (i - 1);
    std::int64_t waited = f.transport->times[i] - f.transport->times[i - 1];
    CHECK(waited >= nominal * 8 / 10);
    CHECK(waited <= nominal * 12 / 10);
  }
  CHECK(f.attempts.back().delivery.state == "failed");
  CHECK(f.attempts.back().delivery.attempts == 8);
  CHECK(f.attempts.back().error == "HTTP 500");
  CHECK(f.store->pending_deliveries(10).empty());
  CHECK(f.store->list_deliveries("job_1").at(0).state == "failed");
  for (const auto& request : f.transport->requests) {
    CHECK(request.headers.at("X-JGrid-Delivery") == "dlv_1");
    CHECK(request.headers.count("Authorization") == 0);
    CHECK(verifies(request, "server-secret"));
  }
}

TEST_CASE("engine::CallbackSender stops at the first 2xx and signs with the job's token", "[engine][callback]") {
  SenderFixture f({0, 503, 204}, "tok");
  f.sender->start();
  REQUIRE(test::eventually([&] {
    std::lock_guard lock(f.mutex);
    return !f.attempts.empty() && f.attempts.back().delivery.state == "delivered";
  }));
  f.clock->wait_idle();
  REQUIRE(f.attempts.size() == 3);
  CHECK(f.attempts[0].error == "connection refused");
  CHECK(f.attempts[1].error == "HTTP 503");
  CHECK(f.attempts[2].status_code == 204);
  CHECK(f.attempts[2].delivery.attempts == 3);
  const auto& request = f.transport->requests.back();
  CHECK(request.headers.at("Authorization") == "Bearer tok");
  CHECK(request.headers.at("X-JGrid-Event") == "job.completed");
  CHECK(request.headers.at("User-Agent") == std::string("jgrid-local/") + JGRID_VERSION);
  CHECK(verifies(request, "tok"));
  CHECK_FALSE(verifies(request, "server-secret"));
}

TEST_CASE("engine: a job with a callback ends in the same commit as its outbox row", "[engine][callback]") {
  test::EngineFixture f({test::make_node("one", "amd", 1)});
  model::JobSpec spec = test::make_spec("amd");
  spec.callback = model::CallbackSpec{"http://127.0.0.1:9/hook", "", model::Json{{"k", "v"}}};
  model::Job job = f.submit(spec);
  auto cancelled = f.engine->cancel(job.id, "local", "");
  REQUIRE(cancelled);
  auto rows = f.store->list_deliveries(job.id);  // durable when cancel returns, with the status
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].id.rfind("dlv_", 0) == 0);
  CHECK(rows[0].event == "job.cancelled");
  CHECK(rows[0].state == "pending");  // no transport here: it waits for a process that has one
  auto body = model::Json::parse(rows[0].body);
  CHECK(body["status"] == "cancelled");
  CHECK(body["metadata"] == model::Json{{"k", "v"}});
  // Without a callback there is no row.
  model::Job plain = f.submit(test::make_spec("amd"));
  REQUIRE(f.engine->cancel(plain.id, "local", ""));
  CHECK(f.store->list_deliveries(plain.id).empty());
}
