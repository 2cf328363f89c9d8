// docs/api.md §2.1–2.4 over real HTTP: estimate, submit, list, get, runtime, cancel.
#include <cmath>
#include <set>

#include "test_server.hpp"

using jgrid::test::Json;
using jgrid::test::rocm_example;
using jgrid::test::TestServer;
using jgrid::test::TestServerOptions;

namespace {

// Requires the JSON error envelope with `code`; returns the message.
std::string error_message(const jgrid::test::HttpReply& reply, const std::string& code) {
  INFO(reply.body);
  REQUIRE(reply.json.is_object());
  CHECK(reply.json.at("ok") == false);
  CHECK(reply.json.at("error").at("code") == code);
  CHECK(reply.header("Content-Type") == "application/json; charset=utf-8");
  return reply.json.at("error").at("message").get<std::string>();
}

Json patched(Json body, const Json& patch) {
  body.merge_patch(patch);
  return body;
}

Json long_running(Json body) {
  body["sim"] = {{"duration_s", 3600}, {"stdout_every_s", 1}};
  return body;
}

}  // namespace

TEST_CASE("api submit of the ROCm example completes on an AMD node", "[api][jobs]") {
  TestServer server;
  auto reply = server.post("/v1/jobs", rocm_example());
  INFO(reply.body);
  REQUIRE(reply.status == 202);
  for (auto field : {"job_id", "id", "status", "queued_at", "submitted_at", "created_at"})
    CHECK(reply.json.contains(field));
  CHECK(reply.json["job_id"] == reply.json["id"]);
  CHECK(reply.header("Location") == server.url + "/v1/jobs/" + reply.json["job_id"].get<std::string>());

  Json job = server.wait_terminal(reply.json["job_id"]);
  CHECK(job["status"] == "completed");
  CHECK(job["gpu"]["vendor"] == "AMD");
  CHECK(job["hardware"]["gpu_vendor"] == "AMD");
  CHECK(job["estimated_cost_usd"].is_number());
}

TEST_CASE("api runtime reports the exit code once the workload ran", "[api][jobs]") {
  TestServer server;
  std::string id = server.submit(rocm_example());
  server.wait_terminal(id);
  auto runtime = server.get("/v1/jobs/" + id + "/runtime");
  INFO(runtime.body);
  REQUIRE(runtime.status == 200);
  CHECK(runtime.json["exit_code"] == 0);
  CHECK(runtime.json["timed_out"] == false);
  CHECK(runtime.json["runtime_availability"]["exit_code"]["state"] == "available");
  CHECK(runtime.json["stdout_tail"].get<std::string>().find("EAR99") != std::string::npos);
  CHECK(runtime.json["diagnostics"].is_array());
}

TEST_CASE("api runtime before the workload started is 404 with the documented message", "[api][jobs]") {
  TestServerOptions options;
  options.time_scale = 1.0;  // provisioning and image pull take seconds
  TestServer server(options);
  std::string id = server.submit(rocm_example());
  auto runtime = server.get("/v1/jobs/" + id + "/runtime");
  CHECK(runtime.status == 404);
  CHECK(error_message(runtime, "NOT_FOUND") == "job runtime not available yet");
}

TEST_CASE("api estimate is read-only and frames cost per family", "[api][jobs]") {
  TestServer server;
  auto plain = server.post("/v1/jobs/estimate", Json{{"workload_type", "inference"}, {"gpu_vendor", "amd"}});
  INFO(plain.body);
  REQUIRE(plain.status == 200);
  CHECK(plain.json["estimated_cost_usd"].is_number());
  CHECK(plain.json.contains("routing"));
  auto mcp = server.post("/v1/mcp/jobs/estimate", Json{{"workload_type", "inference"}, {"gpu_vendor", "amd"}});
  REQUIRE(mcp.status == 200);
  CHECK(mcp.json["ok"] == true);
  CHECK(mcp.json["data"]["estimated_cost_usd"].contains("min"));
  CHECK(mcp.json["data"]["estimated_cost_usd"].contains("max"));
  CHECK(server.count_jobs() == 0);
  auto missing = server.post("/v1/jobs/estimate", Json{{"image", "x"}});
  CHECK(missing.status == 400);
  CHECK(error_message(missing, "INVALID_REQUEST").find("workload_type") != std::string::npos);
}

TEST_CASE("api mcp routes wrap exactly the plain payload", "[api][jobs]") {
  TestServer server;
  std::string id = server.submit(rocm_example());
  server.wait_terminal(id);
  auto plain = server.get("/v1/jobs/" + id);
  auto mcp = server.get("/v1/mcp/jobs/" + id);
  REQUIRE(mcp.status == 200);
  CHECK(mcp.json["ok"] == true);
  Json data = mcp.json["data"];
  CHECK(data["estimated_cost_usd"].is_object());
  data.erase("estimated_cost_usd");
  Json expected = plain.json;
  expected.erase("estimated_cost_usd");
  CHECK(data == expected);

  for (std::string suffix : {"/logs", "/artifacts"}) {
    auto p = server.get("/v1/jobs/" + id + suffix);
    auto m = server.get("/v1/mcp/jobs/" + id + suffix);
    INFO(suffix);
    CHECK(m.json == Json({{"ok", true}, {"data", p.json}}));
  }
  auto missing = server.get("/v1/mcp/jobs/job_missing");
  CHECK(missing.status == 404);
  error_message(missing, "NOT_FOUND");
}

TEST_CASE("api cancel stops a running job and refuses a second cancel", "[api][jobs]") {
  TestServer server;
  std::string id = server.submit(long_running(rocm_example()));
  server.wait_job(id, [](const Json& job) { return job["status"] == "running"; });
  auto cancel = server.post("/v1/jobs/" + id + "/cancel", Json{{"reason", "no longer needed"}});
  INFO(cancel.body);
  REQUIRE(cancel.status == 200);
  CHECK(cancel.json["job_id"] == id);
  CHECK(cancel.json["id"] == id);
  CHECK(cancel.json["status"] == "cancelled");
  CHECK(cancel.json["cancelled"] == true);
  CHECK(cancel.json["message"].is_string());
  CHECK(cancel.json["status_reason"].is_string());
  CHECK(server.get("/v1/jobs/" + id).json["status"] == "cancelled");

  auto again = server.post_raw("/v1/mcp/jobs/" + id + "/cancel", "");
  CHECK(again.status == 409);
  error_message(again, "CONFLICT");
}

TEST_CASE("api submit with bad input is 400 naming the problem and creates nothing", "[api][jobs]") {
  TestServer server;
  auto check = [&](const std::string& body, const std::string& named) {
    auto reply = server.post_raw("/v1/jobs", body);
    INFO(body.substr(0, 200) << " -> " << reply.body);
    CHECK(reply.status == 400);
    CHECK(error_message(reply, "INVALID_REQUEST").find(named) != std::string::npos);
  };
  Json base = rocm_example();
  check("{\"workload_type\": ", "JSON");
  check("[1, 2]", "object");
  check("", "empty");
  check(patched(base, {{"gpu_count", "two"}}).dump(), "gpu_count");
  check(patched(base, {{"workload_type", "quantum"}}).dump(), "workload_type");
  check(patched(base, {{"environment", {{"FOO", 1}}}}).dump(), "FOO");
  check(patched(base, {{"command", std::string(33 * 1024, 'x')}}).dump(), "command");
  check(patched(base, {{"expected_artifacts", {"/etc/passwd"}}}).dump(), "expected_artifacts");
  CHECK(server.count_jobs() == 0);
}

TEST_CASE("api bodies over max-body are 413 with the JSON envelope", "[api][jobs]") {
  TestServer server;
  Json body = rocm_example();
  body["metadata"] = {{"blob", std::string((1 << 20) + 10, 'a')}};
  auto reply = server.post("/v1/jobs", body);
  CHECK(reply.status == 413);
  error_message(reply, "PAYLOAD_TOO_LARGE");
  CHECK(server.count_jobs() == 0);
  // The connection stays usable for the next request.
  CHECK(server.get("/healthz").status == 200);
}

TEST_CASE("api idempotent submit replays the first job and refuses another body", "[api][jobs]") {
  TestServer server;
  httplib::Headers key = {{"Idempotency-Key", "retry-1"}};
  auto first = server.post("/v1/jobs", rocm_example(), key);
  REQUIRE(first.status == 202);
  auto replay = server.post("/v1/jobs", rocm_example(), key);
  CHECK(replay.status == 200);
  CHECK(replay.json["job_id"] == first.json["job_id"]);
  auto other = server.post("/v1/jobs", patched(rocm_example(), {{"name", "other"}}), key);
  CHECK(other.status == 409);
  error_message(other, "CONFLICT");

  Json with_id = patched(rocm_example(), {{"metadata", {{"client_request_id", "req-7"}}}});
  auto a = server.post("/v1/jobs", with_id);
  auto b = server.post("/v1/jobs", with_id);
  CHECK(a.status == 202);
  CHECK(b.status == 200);
  CHECK(a.json["job_id"] == b.json["job_id"]);
  CHECK(server.count_jobs() == 2);
}

TEST_CASE("api list pages newest first without repeats and filters", "[api][jobs]") {
  TestServer server;
  std::vector<std::string> submitted;
  for (int i = 0; i < 5; ++i) submitted.push_back(server.submit(rocm_example()));
  std::vector<std::string> seen;
  std::string cursor;
  for (int page = 0; page < 10; ++page) {
    auto reply = server.get("/v1/jobs?limit=2" + (cursor.empty() ? "" : "&cursor=" + cursor));
    INFO(reply.body);
    REQUIRE(reply.status == 200);
    CHECK(reply.json["limit"] == 2);
    for (const auto& job : reply.json["jobs"]) {
      seen.push_back(job["job_id"]);
      for (auto field : {"job_id", "id", "name", "status", "workload_type", "gpu_vendor", "created_at", "updated_at",
                         "metadata"})
        CHECK(job.contains(field));
    }
    if (!reply.json["has_more"].get<bool>()) {
      CHECK(reply.json["next_cursor"].is_null());
      break;
    }
    cursor = reply.json["next_cursor"].get<std::string>();
  }
  std::vector<std::string> newest_first(submitted.rbegin(), submitted.rend());
  CHECK(seen == newest_first);

  CHECK(server.get("/v1/jobs?limit=0").json["limit"] == 1);
  CHECK(server.get("/v1/jobs?limit=500").json["limit"] == 100);
  CHECK(server.get("/v1/jobs?workload_type=training").json["jobs"].empty());
  CHECK(server.get("/v1/jobs?gpu_vendor=amd").json["jobs"].size() == 5);
  CHECK(server.get("/v1/jobs?status=pending,queued,assigned,starting,running,completed").json["jobs"].size() == 5);
  auto bad = server.get("/v1/jobs?status=done");
  CHECK(bad.status == 400);
  CHECK(error_message(bad, "INVALID_REQUEST").find("status") != std::string::npos);
  CHECK(server.get("/v1/jobs?limit=ten").status == 400);
}

TEST_CASE("api unknown job ids are 404 on every job route", "[api][jobs]") {
  TestServer server;
  for (std::string path : {"/v1/jobs/job_nope", "/v1/jobs/job_nope/runtime", "/v1/jobs/job_nope/logs",
                           "/v1/jobs/job_nope/events", "/v1/jobs/job_nope/artifacts", "/v1/jobs/job_nope/logs/live"}) {
    auto reply = server.get(path);
    INFO(path);
    CHECK(reply.status == 404);
    error_message(reply, "NOT_FOUND");
  }
  auto cancel = server.post("/v1/jobs/job_nope/cancel", Json::object());
  CHECK(cancel.status == 404);
  error_message(cancel, "NOT_FOUND");
}

TEST_CASE("api a job no node could ever run is 503 with Retry-After and no job", "[api][jobs]") {
  TestServer server;
  auto reply = server.post("/v1/jobs", patched(rocm_example(), {{"gpu_count", 64}}));
  INFO(reply.body);
  CHECK(reply.status == 503);
  error_message(reply, "CAPACITY_UNAVAILABLE");
  CHECK(!reply.header("Retry-After").empty());
  CHECK(std::stoi(reply.header("Retry-After")) > 0);
  CHECK(server.count_jobs() == 0);
}

TEST_CASE("api a top-level max_price_per_hour routes like the one in constraints", "[api][jobs]") {
  TestServer server;  // the cheapest AMD node of the default fleet costs more than $0.10/h
  auto reply = server.post("/v1/jobs", patched(rocm_example(), {{"max_price_per_hour", 0.1}}));
  INFO(reply.body);
  CHECK(reply.status == 503);
  CHECK(error_message(reply, "CAPACITY_UNAVAILABLE").find("max_price_per_hour $0.10") != std::string::npos);
  // Given both ways, the constraints member wins.
  auto both = server.post("/v1/jobs", patched(rocm_example(), {{"max_price_per_hour", 0.1},
                                                               {"constraints", {{"max_price_per_hour", 50}}}}));
  CHECK(both.status == 202);
}

TEST_CASE("api account_billing.lifetime_total_spent_usd is the sum of the workspace's job costs so far",
          "[api][jobs]") {
  TestServerOptions options;
  options.virtual_clock = true;
  TestServer server(options);
  double sum = 0;
  std::string last;
  for (int seconds : {3600, 1800}) {
    Json body = rocm_example();
    body["sim"] = {{"duration_s", seconds}};
    last = server.submit(body);
    Json job = server.wait_terminal(last);
    REQUIRE(job["status"] == "completed");
    REQUIRE(job["actual_cost_usd"].get<double>() > 0.01);
    sum += job["actual_cost_usd"].get<double>();
  }
  const double cents = std::round(sum * 100.0) / 100.0;
  auto plain = server.get("/v1/jobs/" + last);
  REQUIRE(plain.status == 200);
  CHECK(plain.json["account_billing"]["lifetime_total_spent_usd"].get<double>() == Approx(cents).margin(1e-9));
  auto mcp = server.get("/v1/mcp/jobs/" + last);
  REQUIRE(mcp.status == 200);
  CHECK(mcp.json["data"]["account_billing"]["lifetime_total_spent_usd"].get<double>() == Approx(cents).margin(1e-9));
  // A new job's first answer already carries what the workspace spent before it.
  Json body = rocm_example();
  body["sim"] = {{"duration_s", 60}};
  auto submitted = server.post("/v1/jobs", body);
  REQUIRE(submitted.status == 202);
  CHECK(submitted.json["account_billing"]["lifetime_total_spent_usd"].get<double>() == Approx(cents).margin(1e-9));
}
