#include "engine/callback_sender.hpp"

#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

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

// A sender whose attempts are committed, as the engine does, and recorded.
std::unique_ptr<CallbackSender> recording_sender(store::Store& store, std::shared_ptr<util::Clock> clock,
                                                 engine::SenderOptions options, std::mutex& mutex,
                                                 std::vector<CallbackAttempt>& attempts) {
  return std::make_unique<CallbackSender>(store, std::move(clock), options, [&](const CallbackAttempt& a) {
    store::WriteBatch update;
    update.deliveries.push_back(a.delivery);
    REQUIRE(store.commit(update).ok());
    std::lock_guard lock(mutex);
    attempts.push_back(a);
  });
}

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
    sender = recording_sender(*store, clock, options, mutex, attempts);
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

namespace {

// Posts to a URL holding "slow" wait until release() (or cancel()); the
// others answer 200 at once. Counts the posts in flight per URL.
class GatedTransport final : public engine::CallbackTransport {
 public:
  CallbackResponse post(const CallbackRequest& request) override {
    std::unique_lock lock(m_mutex);
    posts.push_back(request);
    int now = ++m_in_flight[request.url];
    max_in_flight[request.url] = std::max(max_in_flight[request.url], now);
    int job_now = ++m_job_in_flight[request.headers.at("X-JGrid-Delivery").substr(0, 6)];
    max_per_job = std::max(max_per_job, job_now);
    if (request.url.find("slow") != std::string::npos) m_cv.wait(lock, [&] { return m_open || m_cancelled; });
    --m_in_flight[request.url];
    --m_job_in_flight[request.headers.at("X-JGrid-Delivery").substr(0, 6)];
    return m_cancelled ? CallbackResponse{0, "cancelled"} : CallbackResponse{200, ""};
  }
  void cancel() override {
    std::lock_guard lock(m_mutex);
    m_cancelled = true;
    m_cv.notify_all();
  }
  void resume() override {}
  void release() {
    std::lock_guard lock(m_mutex);
    m_open = true;
    m_cv.notify_all();
  }
  int in_flight(const std::string& url) {
    std::lock_guard lock(m_mutex);
    return m_in_flight[url];
  }
  std::vector<CallbackRequest> posts;
  std::map<std::string, int> max_in_flight;
  int max_per_job = 0;

 private:
  std::mutex m_mutex;
  std::condition_variable m_cv;
  bool m_open = false;
  bool m_cancelled = false;
  std::map<std::string, int> m_in_flight;
  std::map<std::string, int> m_job_in_flight;
};

// Jobs job_<nn> (each with deliveries dlv_<nn>_<k>) calling back the given
// URLs, on a real clock, sent through a GatedTransport.
struct ManyFixture {
  struct Spec {
    std::string url;
    int deliveries = 1;
    std::string token;
  };
  explicit ManyFixture(const std::vector<Spec>& jobs) {
    auto opened = store::Store::open({});
    REQUIRE(opened);
    store = std::move(opened).value();
    store::WriteBatch batch;
    for (std::size_t n = 0; n < jobs.size(); ++n) {
      model::Job job;
      job.id = "job_" + two_digits(n);
      job.status = model::JobStatus::completed;
      job.spec.edit().callback = model::CallbackSpec{jobs[n].url, jobs[n].token, model::Json::object()};
      batch.jobs.push_back(job);
      for (int k = 0; k < jobs[n].deliveries; ++k) {  // one per event (the outbox keeps one per job and event)
        auto d = model::make_delivery(job, "dlv_" + two_digits(n) + "_" + std::to_string(k), clock->now_ms(), 0);
        d.event = "job.event_" + std::to_string(k);
        batch.deliveries.push_back(std::move(d));
      }
    }
    REQUIRE(store->commit(batch).ok());
    engine::SenderOptions options{transport, "server-secret", 10, 7};
    sender = recording_sender(*store, clock, options, mutex, attempts);
  }
  ~ManyFixture() {
    transport->release();
    sender->stop();
  }
  static std::string two_digits(std::size_t n) { return (n < 10 ? "0" : "") + std::to_string(n); }
  std::size_t delivered(std::size_t job) {
    std::string job_id = "job_" + two_digits(job);
    std::size_t count = 0;
    for (const auto& d : store->list_deliveries(job_id)) count += d.state == "delivered";
    return count;
  }

  std::shared_ptr<util::Clock> clock = util::make_real_clock(1.0);
  std::unique_ptr<store::Store> store;
  std::shared_ptr<GatedTransport> transport = std::make_shared<GatedTransport>();
  std::unique_ptr<CallbackSender> sender;
  std::mutex mutex;
  std::vector<CallbackAttempt> attempts;
};

}  // namespace

TEST_CASE("engine::CallbackSender delivers to a healthy receiver while another one stalls", "[engine][callback]") {
  ManyFixture f({{"http://slow.example:80/hook"}, {"http://fast.example:80/hook"}});
  f.sender->start();
  REQUIRE(test::eventually([&] { return f.delivered(1) == 1; }));
  CHECK(f.transport->in_flight("http://slow.example:80/hook") == 1);
  CHECK(f.delivered(0) == 0);
  f.transport->release();
  CHECK(test::eventually([&] { return f.delivered(0) == 1; }));
}

TEST_CASE("engine::CallbackSender holds at most 2 slots per receiver and 8 in all", "[engine][callback]") {
  std::vector<ManyFixture::Spec> jobs;
  for (int i = 0; i < 5; ++i) jobs.push_back({"http://slow.example:80/hook"});
  for (int i = 0; i < 12; ++i) jobs.push_back({"http://slow-" + std::to_string(i) + ".example:80/hook"});
  jobs.push_back({"http://fast.example:80/hook"});
  ManyFixture f(jobs);
  f.sender->start();
  REQUIRE(test::eventually([&] {
    std::lock_guard lock(f.mutex);
    return f.transport->in_flight("http://slow.example:80/hook") == 2;
  }));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // room for an attempt the caps should forbid
  CHECK(f.transport->max_in_flight["http://slow.example:80/hook"] == 2);
  int total = 0;
  for (int i = 0; i < 12; ++i) total += f.transport->in_flight("http://slow-" + std::to_string(i) + ".example:80/hook");
  CHECK(total == 6);  // 8 slots: 2 to slow.example, 6 to the others
  f.transport->release();
  REQUIRE(test::eventually([&] {
    std::size_t done = 0;
    for (std::size_t n = 0; n < jobs.size(); ++n) done += f.delivered(n);
    return done == jobs.size();
  }));
  CHECK(f.transport->max_in_flight["http://slow.example:80/hook"] == 2);
  CHECK(f.transport->posts.size() == jobs.size());  // each once: none attempted twice
}

TEST_CASE("engine::CallbackSender sends one job's deliveries one at a time", "[engine][callback]") {
  ManyFixture f({{"http://a.example:80/hook", 4}, {"http://b.example:81/hook", 3}});
  f.sender->start();
  REQUIRE(test::eventually([&] { return f.delivered(0) == 4 && f.delivered(1) == 3; }));
  CHECK(f.transport->max_per_job == 1);
  CHECK(f.transport->posts.size() == 7);
}

TEST_CASE("engine::CallbackSender never sends a header value with CR or LF, and says why", "[engine][callback]") {
  ManyFixture f({{"http://fast.example:80/hook", 1, "tok\r\nX-Injected: 1"}, {"http://fast.example:80/ho\nok"}});
  f.sender->start();
  REQUIRE(test::eventually([&] {
    std::lock_guard lock(f.mutex);
    return f.attempts.size() == 2;
  }));
  CHECK(f.transport->posts.empty());
  for (const auto& a : f.attempts) {
    INFO(a.error);
    CHECK(a.delivery.state == "failed");  // for good: the same request would only be refused again
    CHECK(a.delivery.attempts == 1);
    CHECK(a.error.rfind("not sent: ", 0) == 0);
  }
  std::string errors = f.attempts[0].error + "|" + f.attempts[1].error;
  CHECK(errors.find("the Authorization header value holds a control character") != std::string::npos);
  CHECK(errors.find("the URL holds a control character") != std::string::npos);
}

TEST_CASE("engine::CallbackSender::unsafe_request refuses control characters in names, values and the URL",
          "[engine][callback]") {
  CallbackRequest ok{"http://r.example/hook?a=1", {{"Authorization", "Bearer a\tb"}, {"X-JGrid-Event", "job.failed"}}, "{}"};
  CHECK_FALSE(CallbackSender::unsafe_request(ok));
  for (const auto& [name, value] : std::vector<std::pair<std::string, std::string>>{
           {"Authorization", "Bearer a\rb"}, {"Authorization", "Bearer a\nb"}, {"Authorization", std::string("a\0b", 3)},
           {"Authorization", "a\x7f"}, {"X Bad", "v"}, {"X:Bad", "v"}, {"", "v"}}) {
    CallbackRequest bad = ok;
    bad.headers[name] = value;
    INFO(name);
    CHECK(CallbackSender::unsafe_request(bad));
  }
  for (std::string url : {"http://r.example/a b", "http://r.example/a\r\nHost: x", "http://r.example/\x01"}) {
    CallbackRequest bad = ok;
    bad.url = url;
    CHECK(CallbackSender::unsafe_request(bad));
  }
}
