// docs/api.md §1 transport: routing, base path, HEAD, trailing slashes,
// percent-decoding, JSON errors for unknown routes and methods.
#include "test_server.hpp"

using jgrid::test::Json;
using jgrid::test::rocm_example;
using jgrid::test::TestServer;
using jgrid::test::TestServerOptions;

TEST_CASE("api unknown routes are 404 and wrong methods 405, both JSON", "[api][transport]") {
  TestServer server;
  auto unknown = server.get("/v1/nothing-here");
  CHECK(unknown.status == 404);
  CHECK(unknown.json["ok"] == false);
  CHECK(unknown.json["error"]["code"] == "NOT_FOUND");
  CHECK(unknown.header("Content-Type") == "application/json; charset=utf-8");

  auto wrong = server.send("DELETE", "/v1/jobs");
  CHECK(wrong.status == 405);
  CHECK(wrong.json["error"]["code"] == "INVALID_REQUEST");
  std::string message = wrong.json["error"]["message"];
  CHECK(message.find("GET") != std::string::npos);
  CHECK(message.find("POST") != std::string::npos);
  CHECK(wrong.header("Allow") == "GET, HEAD, POST");
  auto unsupported = server.send("BREW", "/v1/jobs");
  CHECK(unsupported.json["ok"] == false);
  CHECK(unsupported.json["error"]["message"].get<std::string>().find("BREW") != std::string::npos);
  CHECK(server.post("/healthz", Json::object()).status == 405);
}

TEST_CASE("api HEAD works wherever GET does and sends no body", "[api][transport]") {
  TestServer server;
  std::string id = server.submit(rocm_example());
  auto get = server.get("/v1/jobs");
  auto head = server.head("/v1/jobs");
  CHECK(head.status == 200);
  CHECK(head.body.empty());
  CHECK(head.header("Content-Type") == "application/json; charset=utf-8");
  CHECK(server.head("/v1/jobs/" + id).status == 200);
  CHECK(server.head("/v1/jobs/job_missing").status == 404);
  CHECK(server.head("/healthz").status == 200);
}

TEST_CASE("api tolerates trailing slashes", "[api][transport]") {
  TestServer server;
  std::string id = server.submit(rocm_example());
  CHECK(server.get("/v1/jobs/").status == 200);
  CHECK(server.get("/v1/jobs/" + id + "/").json["job_id"] == id);
  CHECK(server.get("/healthz/").status == 200);
  CHECK(server.post("/v1/jobs/", rocm_example()).status == 202);
}

TEST_CASE("api path parameters are split first, then percent-decoded", "[api][transport]") {
  TestServer server;
  std::string id = server.submit(rocm_example());
  // "%6A" is 'j': the decoded id is the job's.
  auto encoded = server.get("/v1/jobs/%6A" + id.substr(1));
  CHECK(encoded.status == 200);
  CHECK(encoded.json["job_id"] == id);
  // "%2F" stays inside one segment: one (unknown) id, not two segments.
  auto slash = server.get("/v1/jobs/job%2F1");
  CHECK(slash.status == 404);
  CHECK(slash.json["error"]["message"] == "job not found: job/1");
  auto slash_logs = server.get("/v1/jobs/job%2F1/logs");
  CHECK(slash_logs.json["error"]["message"] == "job not found: job/1");
  auto malformed = server.get("/v1/jobs/%zz");
  CHECK(malformed.status == 400);
  CHECK(malformed.json["error"]["code"] == "INVALID_REQUEST");
}

TEST_CASE("api is served at / and under the base path, with URLs to match", "[api][transport]") {
  TestServerOptions options;
  options.base_path = "/grid/";
  TestServer server(options);
  CHECK(server.url == "http://127.0.0.1:" + std::to_string(server.port) + "/grid");
  CHECK(server.get("/grid/v1/jobs").status == 200);
  CHECK(server.get("/v1/jobs").status == 200);
  CHECK(server.get("/grid/healthz").status == 200);
  CHECK(server.get("/gridv1/jobs").status == 404);

  auto under = server.post("/grid/v1/job-inputs", {{"filename", "a.txt"}});
  std::string prefix = "http://127.0.0.1:" + std::to_string(server.port) + "/grid/v1/job-inputs/";
  CHECK(under.json["upload"]["upload_url"].get<std::string>().rfind(prefix, 0) == 0);
  auto root = server.post("/v1/job-inputs", {{"filename", "b.txt"}});
  std::string root_prefix = "http://127.0.0.1:" + std::to_string(server.port) + "/v1/job-inputs/";
  CHECK(root.json["upload"]["upload_url"].get<std::string>().rfind(root_prefix, 0) == 0);
}

TEST_CASE("api URLs come from --public-url when set", "[api][transport]") {
  TestServerOptions options;
  options.public_url = "https://grid.example.com/api/";
  TestServer server(options);
  auto reply = server.post("/v1/job-inputs", {{"filename", "a.txt"}});
  CHECK(reply.json["upload"]["complete_url"].get<std::string>().rfind("https://grid.example.com/api/v1/job-inputs/", 0) ==
        0);
}

TEST_CASE("api refuses oversized bodies on any method with JSON", "[api][transport]") {
  TestServerOptions options;
  options.max_body_bytes = 1000;
  TestServer server(options);
  auto reply = server.post_raw("/v1/job-inputs", "{\"filename\": \"" + std::string(2000, 'a') + "\"}");
  CHECK(reply.status == 413);
  CHECK(reply.json["error"]["code"] == "PAYLOAD_TOO_LARGE");
  CHECK(server.get("/healthz").status == 200);
}

TEST_CASE("api reads a POST without Content-Length as an empty body", "[api][transport]") {
  TestServer server;
  Json body = rocm_example();
  body["sim"] = {{"duration_s", 3600}};
  std::string id = server.submit(body);
  auto cancel = server.raw_request("POST /v1/jobs/" + id + "/cancel HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  CHECK(cancel.rfind("HTTP/1.1 200", 0) == 0);
  auto submit = server.raw_request("POST /v1/jobs HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  CHECK(submit.rfind("HTTP/1.1 400", 0) == 0);
  CHECK(submit.find("request body is empty") != std::string::npos);
}

TEST_CASE("api answers requests the HTTP layer refuses with JSON too", "[api][transport]") {
  TestServer server;
  auto bad_range = server.raw_request("GET /healthz HTTP/1.1\r\nHost: x\r\nRange: bytes=zz\r\nConnection: close\r\n\r\n");
  CHECK(bad_range.rfind("HTTP/1.1 416", 0) == 0);
  CHECK(bad_range.find("\"error\":{\"code\":\"INVALID_REQUEST\"") != std::string::npos);
  CHECK(bad_range.find("\"code\":\"INVALID_REQUEST\",\"error\"") != std::string::npos);  // the top-level copy
  auto odd_method = server.raw_request("BREW /v1/jobs HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  CHECK(odd_method.rfind("HTTP/1.1 405", 0) == 0);
  CHECK(odd_method.find("\"ok\":false") != std::string::npos);
  // A Range header never slices a JSON body.
  auto ranged = server.get("/healthz", {{"Range", "bytes=0-3"}});
  CHECK(ranged.status == 200);
  CHECK(ranged.json["ok"] == true);
}

namespace {

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++count;
  return count;
}

}  // namespace

TEST_CASE("api serves keep-alive and pipelined requests on one connection, in order", "[api][transport]") {
  TestServer server;
  std::string get = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
  // Three requests in one write: the second and third wait in the buffer of
  // the first; the last asks to close, so the server ends the connection.
  auto replies = server.raw_request(get + get + "GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  CHECK(count_of(replies, "HTTP/1.1 200 OK") == 3);
  CHECK(count_of(replies, "Connection: close") == 1);
}

TEST_CASE("api ends a connection after a request head it cannot read", "[api][transport]") {
  TestServer server;
  // Without the close, the lines after the bad request line would be read as
  // a second request and answered too.
  auto replies = server.raw_request("\x01\x02 /v1/jobs HTTP/1.1\r\nHost: x\r\nX-A: b\r\n\r\n");
  CHECK(count_of(replies, "HTTP/1.1 ") == 1);
}

TEST_CASE("api refuses oversized request heads with JSON and keeps serving", "[api][transport]") {
  TestServer server;
  auto many = std::string("GET /healthz HTTP/1.1\r\nHost: x\r\n");
  for (int i = 0; i < 101; ++i) many += "X-H" + std::to_string(i) + ": v\r\n";
  auto refused = server.raw_request(many + "\r\n");
  CHECK(refused.rfind("HTTP/1.1 431", 0) == 0);
  CHECK(refused.find("\"code\":\"HEADERS_TOO_LARGE\"") != std::string::npos);
  auto long_line = server.raw_request("GET /" + std::string(9000, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n");
  CHECK(long_line.rfind("HTTP/1.1 414", 0) == 0);
  CHECK(server.get("/healthz").status == 200);
}
