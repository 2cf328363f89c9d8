// docs/api.md §5 callbacks end to end in-process: a real loopback receiver,
// the outbox, retries, the job's callback state and events, self-URL refusal.
#include <atomic>
#include <mutex>

#include "jgrid/util/crypto.hpp"
#include "test_server.hpp"

using namespace jgrid;
using jgrid::test::Json;
using jgrid::test::TestServer;

namespace {

// A receiver on a free loopback port that answers `fail_first` requests
// with 500, then 200, and keeps what it got.
class Receiver {
 public:
  explicit Receiver(int fail_first = 0) : m_fail_first(fail_first) {
    m_http.Post("/hook", [this](const httplib::Request& req, httplib::Response& res) {
      std::lock_guard lock(m_mutex);
      m_requests.push_back(req);
      res.status = static_cast<int>(m_requests.size()) <= m_fail_first ? 500 : 200;
      res.set_content("{}", "application/json");
    });
    port = m_http.bind_to_any_port("127.0.0.1");
    REQUIRE(port > 0);
    m_thread = std::thread([this] { m_http.listen_after_bind(); });
    while (!m_http.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));  // stop() needs it
  }
  ~Receiver() {
    m_http.stop();
    m_thread.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port) + "/hook"; }
  std::vector<httplib::Request> requests() const {
    std::lock_guard lock(m_mutex);
    return m_requests;
  }
  int port = 0;

 private:
  int m_fail_first;
  httplib::Server m_http;
  mutable std::mutex m_mutex;
  std::vector<httplib::Request> m_requests;
  std::thread m_thread;
};

// Checks X-JGrid-Signature "t=<s>,v1=<hex>" against `key` and the body.
bool signature_verifies(const httplib::Request& req, const std::string& key) {
  std::string header = req.get_header_value("X-JGrid-Signature");
  auto comma = header.find(",v1=");
  if (header.rfind("t=", 0) != 0 || comma == std::string::npos) return false;
  std::string t = header.substr(2, comma - 2);
  return util::constant_time_equal(util::hmac_sha256_hex(key, t + "." + req.body), header.substr(comma + 4));
}

Json submit(TestServer& server, Json body) {
  auto reply = server.post("/v1/jobs", body);
  REQUIRE(reply.status == 202);
  return reply.json;
}

Json wait_callback_settled(TestServer& server, const std::string& id) {
  return server.wait_job(id, [](const Json& job) {
    return job.contains("callback") && job["callback"]["status"] != "pending";
  });
}

std::vector<Json> callback_events(TestServer& server, const std::string& id) {
  std::vector<Json> out;
  auto reply = server.get("/v1/jobs/" + id + "/events?limit=100");  // outlives the loop
  for (const auto& e : reply.json["items"])
    if (e["source"] == "callback") out.push_back(e);
  return out;
}

}  // namespace

TEST_CASE("callbacks: a completed job POSTs the signed §5 body with its token", "[callbacks]") {
  Receiver receiver;
  TestServer server;
  Json body = test::rocm_example();
  body["callback"] = {{"url", receiver.url()}, {"auth_token", "tok-123"}, {"metadata", {{"ticket", "T-9"}}}};
  std::string id = submit(server, body)["job_id"];
  Json job = wait_callback_settled(server, id);
  CHECK(job["status"] == "completed");
  CHECK(job["callback"] == Json{{"url", receiver.url()}, {"status", "delivered"}, {"attempts", 1}});

  auto requests = receiver.requests();
  REQUIRE(requests.size() == 1);
  const auto& req = requests[0];
  CHECK(req.get_header_value("Content-Type") == "application/json");
  CHECK(req.get_header_value("User-Agent") == std::string("jgrid-local/") + JGRID_VERSION);
  CHECK(req.get_header_value("X-JGrid-Event") == "job.completed");
  CHECK(req.get_header_value("X-JGrid-Delivery").rfind("dlv_", 0) == 0);
  CHECK(req.get_header_value("Authorization") == "Bearer tok-123");
  CHECK(signature_verifies(req, "tok-123"));
  CHECK_FALSE(signature_verifies(req, test::k_test_callback_secret));
  Json sent = Json::parse(req.body);
  CHECK(sent["event"] == "job.completed");
  CHECK(sent["job_id"] == id);
  CHECK(sent["status"] == "completed");
  CHECK(sent["exit_code"] == 0);
  CHECK(sent["timed_out"] == false);
  CHECK(sent["completed_at"] == job["completed_at"]);
  CHECK(sent["metadata"] == Json{{"ticket", "T-9"}});
  CHECK(sent["job"]["job_id"] == id);
  CHECK(sent.contains("status_reason"));

  auto events = callback_events(server, id);
  REQUIRE(events.size() == 1);
  CHECK(events[0]["type"] == "job.callback_delivered");
  CHECK(events[0]["data"]["delivery_id"] == req.get_header_value("X-JGrid-Delivery"));
  CHECK(events[0]["data"]["attempt"] == 1);
  CHECK(events[0]["data"]["status_code"] == 200);
}

TEST_CASE("callbacks: the job in the body counts its own cost in what the workspace spent", "[callbacks]") {
  Receiver receiver;
  TestServer server;
  Json body = test::rocm_example();
  body["sim"] = {{"duration_s", 120}};  // 1.2 s at the fixture's time scale: cents, not fractions of one
  body["callback"] = {{"url", receiver.url()}};
  std::string id = submit(server, body)["job_id"];
  Json job = wait_callback_settled(server, id);
  REQUIRE(job["status"] == "completed");
  auto requests = receiver.requests();
  REQUIRE(requests.size() == 1);
  Json sent = Json::parse(requests[0].body);
  // The body was made before the job's cost was committed: it is added.
  CHECK(job["account_billing"]["lifetime_total_spent_usd"].get<double>() > 0);
  CHECK(sent["job"]["account_billing"] == job["account_billing"]);
}

TEST_CASE("callbacks: failed attempts are retried with the same delivery and body", "[callbacks]") {
  Receiver receiver(2);
  TestServer server;
  Json body = test::rocm_example();
  body["webhook_url"] = receiver.url();
  std::string id = submit(server, body)["job_id"];
  Json job = wait_callback_settled(server, id);
  CHECK(job["callback"]["status"] == "delivered");
  CHECK(job["callback"]["attempts"] == 3);
  CHECK(job["status"] == "completed");

  auto requests = receiver.requests();
  REQUIRE(requests.size() == 3);
  for (const auto& req : requests) {
    CHECK(req.get_header_value("X-JGrid-Delivery") == requests[0].get_header_value("X-JGrid-Delivery"));
    CHECK(req.body == requests[0].body);
    CHECK(req.get_header_value("Authorization").empty());
    CHECK(signature_verifies(req, test::k_test_callback_secret));  // no token: the server's key
  }
  auto events = callback_events(server, id);
  REQUIRE(events.size() == 3);
  CHECK(events[0]["type"] == "job.callback_failed");
  CHECK(events[0]["level"] == "warning");
  CHECK(events[0]["data"]["status_code"] == 500);
  CHECK(events[0]["data"]["error"] == "HTTP 500");
  CHECK(events[1]["data"]["attempt"] == 2);
  CHECK(events[2]["type"] == "job.callback_delivered");
  CHECK(events[2]["data"]["attempt"] == 3);
}

TEST_CASE("callbacks: after 8 failed attempts the delivery fails and the job keeps its status", "[callbacks]") {
  Receiver receiver(1000);
  test::TestServerOptions options;
  options.callback_backoff_base_ms = 10;
  TestServer server(options);
  Json body = test::rocm_example();
  body["callback_url"] = receiver.url();
  body["callback_auth_token"] = "t";
  std::string id = submit(server, body)["job_id"];
  Json job = wait_callback_settled(server, id);
  CHECK(job["status"] == "completed");
  CHECK(job["callback"]["status"] == "failed");
  CHECK(job["callback"]["attempts"] == 8);
  CHECK(job["callback"]["last_error"] == "HTTP 500");
  CHECK(receiver.requests().size() == 8);
  auto events = callback_events(server, id);
  REQUIRE(events.size() == 8);
  CHECK(events.back()["level"] == "error");
  auto metrics = server.get("/metrics").body;
  CHECK(metrics.find("jgrid_callback_deliveries_total{result=\"failed\"} ") != std::string::npos);
  CHECK(metrics.find("jgrid_callback_deliveries_total{result=\"retried\"} ") != std::string::npos);
}

TEST_CASE("callbacks: a receiver that is down counts as a failed attempt", "[callbacks]") {
  int closed_port = 0;
  { Receiver gone; closed_port = gone.port; }
  test::TestServerOptions options;
  options.callback_backoff_base_ms = 10;
  TestServer server(options);
  Json body = test::rocm_example();
  body["webhook_url"] = "http://127.0.0.1:" + std::to_string(closed_port) + "/hook";
  std::string id = submit(server, body)["job_id"];
  Json job = wait_callback_settled(server, id);
  CHECK(job["callback"]["status"] == "failed");
  CHECK_FALSE(job["callback"]["last_error"].get<std::string>().empty());
  CHECK(callback_events(server, id).at(0)["data"]["status_code"].is_null());
}

TEST_CASE("callbacks: submit refuses a callback URL that points at the server itself", "[callbacks]") {
  TestServer server;
  std::string port = std::to_string(server.port);
  struct Case {
    Json fields;
    std::string field;
  };
  for (const auto& c : std::vector<Case>{
           {{{"callback_url", "http://127.0.0.1:" + port + "/v1/jobs"}}, "callback_url"},
           {{{"webhook_url", "http://localhost:" + port + "/anything"}}, "webhook_url"},
           {{{"callback", {{"url", "http://[::1]:" + port + "/"}}}}, "callback.url"},
           {{{"callback_url", "ftp://example.com/x"}}, "callback_url"},
       }) {
    Json body = test::rocm_example();
    body.update(c.fields);
    auto reply = server.post("/v1/jobs", body);
    CHECK(reply.status == 400);
    CHECK(reply.json["error"]["code"] == "INVALID_REQUEST");
    CHECK(reply.json["error"]["message"].get<std::string>().rfind(c.field + ":", 0) == 0);
    CHECK(reply.json["error"]["details"]["field"] == c.field);
  }
  CHECK(server.count_jobs() == 0);
  Json other = test::rocm_example();
  other["callback_url"] = "http://127.0.0.1:1/elsewhere";
  CHECK(server.post("/v1/jobs", other).status == 202);
}

TEST_CASE("callbacks: submit refuses every spelling of this machine's addresses on the server's port", "[callbacks]") {
  TestServer server;
  std::string port = std::to_string(server.port);
  for (std::string host : {"2130706433", "0x7f.0.0.1", "0x7f000001", "0177.0.0.1", "127.1", "0", "localhost.",
                           "127.0.0.1.", "[::ffff:7f00:1]", "[::ffff:127.0.0.1]", "[::]", "[0:0:0:0:0:0:0:1]"}) {
    Json body = test::rocm_example();
    body["callback_url"] = "http://" + host + ":" + port + "/v1/sim/reset";
    auto reply = server.post("/v1/jobs", body);
    INFO(host);
    CHECK(reply.status == 400);
    CHECK(reply.json["error"]["details"]["field"] == "callback_url");
  }
  CHECK(server.count_jobs() == 0);
}

TEST_CASE("callbacks: a receiver on another port of this machine gets its callback under any spelling",
          "[callbacks]") {
  Receiver receiver;
  TestServer server;
  for (std::string host : {"2130706433", "0x7f.0.0.1", "127.1"}) {
    Json body = test::rocm_example();
    body["callback_url"] = "http://" + host + ":" + std::to_string(receiver.port) + "/hook";
    std::string id = submit(server, body)["job_id"];
    Json job = wait_callback_settled(server, id);
    INFO(host << " " << job.dump());
    CHECK(job["callback"]["status"] == "delivered");
  }
  CHECK(receiver.requests().size() == 3);
}

TEST_CASE("callbacks: a URL under the public URL is the server itself", "[callbacks]") {
  test::TestServerOptions options;
  options.public_url = "https://grid.example.com/jgrid";
  TestServer server(options);
  Json body = test::rocm_example();
  body["callback_url"] = "https://grid.example.com/jgrid/v1/jobs";
  CHECK(server.post("/v1/jobs", body).status == 400);
  body["callback_url"] = "https://grid.example.com/elsewhere/hook";
  auto other = server.post("/v1/jobs", body);
  INFO(other.body);
  CHECK(other.status == 202);
}
