// docs/api.md §2.9: the upload flow end to end, its limits and its refusals.
#include "jgrid/util/crypto.hpp"
#include "test_server.hpp"

using jgrid::test::Json;
using jgrid::test::rocm_example;
using jgrid::test::TestServer;
using jgrid::test::TestServerOptions;

namespace {

Json create(const TestServer& server, const std::string& filename, const std::string& kind = "input") {
  auto reply = server.post("/v1/job-inputs", {{"filename", filename}, {"content_type", "text/csv"}, {"kind", kind}});
  INFO(reply.body);
  REQUIRE(reply.status == 200);
  return reply.json["upload"];
}

}  // namespace

TEST_CASE("api upload flow: create, PUT, complete, list, use in a job", "[api][inputs]") {
  TestServer server;
  Json upload = create(server, "data.csv");
  for (auto field : {"input_id", "filename", "kind", "method", "upload_url", "token", "expires_at", "complete_url",
                     "headers"})
    CHECK(upload.contains(field));
  CHECK(upload["method"] == "PUT");
  CHECK(upload["headers"]["Content-Type"] == "text/csv");
  std::string id = upload["input_id"];
  std::string bytes = "a,b\n1,2\n";

  auto put = server.put_raw(local_part(server, upload["upload_url"]), bytes, {}, "text/csv");
  INFO(put.body);
  REQUIRE(put.status == 200);
  CHECK(put.json["size_bytes"] == bytes.size());

  auto complete = server.post(local_part(server, upload["complete_url"]),
                              {{"token", upload["token"]}, {"size_bytes", bytes.size()}});
  INFO(complete.body);
  REQUIRE(complete.status == 200);
  CHECK(complete.json["input_id"] == id);
  CHECK(complete.json["status"] == "ready");
  CHECK(complete.json["ready"] == true);
  CHECK(complete.json["sha256"] == jgrid::util::sha256_hex(bytes));
  CHECK(complete.json["mount_path"] == "/workspace/inputs/data.csv");

  auto list = server.get("/v1/job-inputs");
  REQUIRE(list.status == 200);
  REQUIRE(list.json["inputs"].size() == 1);
  CHECK(list.json["inputs"][0]["input_id"] == id);
  CHECK(list.json["inputs"][0]["ready"] == true);
  CHECK(list.json["has_more"] == false);
  CHECK(server.get("/v1/job-inputs?status=pending").json["inputs"].empty());

  Json body = rocm_example();
  body["input_files"] = {id};
  CHECK(server.post("/v1/jobs", body).status == 202);
}

TEST_CASE("api upload accepts the bearer token and refuses anything else", "[api][inputs]") {
  TestServer server;
  Json upload = create(server, "script.sh", "script");
  std::string plain_path = "/v1/job-inputs/" + upload["input_id"].get<std::string>() + "/content";
  auto refused = server.put_raw(plain_path, "echo hi\n");
  CHECK(refused.status == 403);
  CHECK(refused.json["error"]["code"] == "FORBIDDEN");
  auto wrong = server.put_raw(plain_path, "echo hi\n", {{"Authorization", "Bearer nope"}});
  CHECK(wrong.status == 403);
  auto accepted = server.put_raw(plain_path, "echo hi\n", {{"Authorization", "Bearer " + upload["token"].get<std::string>()}});
  CHECK(accepted.status == 200);
  auto complete = server.post(local_part(server, upload["complete_url"]), {{"token", upload["token"]}});
  CHECK(complete.json["mount_path"] == "/workspace/scripts/script.sh");
}

TEST_CASE("api upload completion checks the declared size and that bytes arrived", "[api][inputs]") {
  TestServer server;
  Json upload = create(server, "x.bin");
  std::string complete_path = local_part(server, upload["complete_url"]);
  auto early = server.post(complete_path, {{"token", upload["token"]}});
  CHECK(early.status == 409);
  CHECK(early.json["error"]["code"] == "JOB_INPUT_NOT_READY");
  REQUIRE(server.put_raw(local_part(server, upload["upload_url"]), "12345").status == 200);
  auto mismatch = server.post(complete_path, {{"token", upload["token"]}, {"size_bytes", 6}});
  CHECK(mismatch.status == 400);
  CHECK(mismatch.json["error"]["message"].get<std::string>().find("size_bytes") != std::string::npos);
  auto bad_token = server.post(complete_path, {{"token", "nope"}, {"size_bytes", 5}});
  CHECK(bad_token.status == 403);
  CHECK(server.post(complete_path, {{"token", upload["token"]}, {"size_bytes", 5}}).status == 200);
}

TEST_CASE("api upload over max-upload is 413 and leaves no blob", "[api][inputs]") {
  TestServerOptions options;
  options.max_upload_bytes = 1000;
  TestServer server(options);
  Json upload = create(server, "big.bin");
  auto reply = server.put_raw(local_part(server, upload["upload_url"]), std::string(5000, 'z'));
  CHECK(reply.status == 413);
  CHECK(reply.json["error"]["code"] == "PAYLOAD_TOO_LARGE");
  CHECK(!std::filesystem::exists(server.data_dir / "uploads" / upload["input_id"].get<std::string>()));
  CHECK(server.get("/healthz").status == 200);
}

TEST_CASE("api input filenames with a path are 400 and create nothing", "[api][inputs]") {
  TestServer server;
  for (std::string name : {"a/b.csv", "..", "../x", "a\\b", "tab\there", ""}) {
    auto reply = server.post("/v1/job-inputs", {{"filename", name}});
    INFO(name << " -> " << reply.body);
    CHECK(reply.status == 400);
    CHECK(reply.json["error"]["code"] == "INVALID_REQUEST");
    CHECK(reply.json["error"]["message"].get<std::string>().find("filename") != std::string::npos);
  }
  CHECK(server.post("/v1/job-inputs", {{"filename", "ok.csv"}, {"kind", "weird"}}).status == 400);
  CHECK(server.post("/v1/job-inputs", {{"filename", 7}}).status == 400);
  CHECK(server.get("/v1/job-inputs").json["inputs"].empty());
  auto unknown = server.put_raw("/v1/job-inputs/inp_missing/content", "x");
  CHECK(unknown.status == 404);
  CHECK(server.post("/v1/job-inputs/inp_missing/complete", {{"token", "t"}}).status == 404);
}

TEST_CASE("api upload completes with the caller's key and no body under --auth off", "[api][inputs]") {
  TestServer server;  // --auth off: any bearer is the local workspace's key
  Json upload = create(server, "data.csv");
  std::string put = upload["upload_url"];
  REQUIRE(server.put_raw(put.substr(server.url.size()), "a,b\n").status == 200);
  auto client = server.client();
  std::string url = upload["complete_url"];
  auto reply = client.Post(url.substr(server.url.size()).c_str(), {{"Authorization", "Bearer jg_any_key"}}, "", "");
  REQUIRE(reply);
  INFO(reply->body);
  CHECK(reply->status == 200);
  CHECK(Json::parse(reply->body)["ready"] == true);
}

TEST_CASE("api URLs in replies keep the port when a loopback Host comes without one", "[api][inputs]") {
  TestServer server;
  std::string port = server.url.substr(server.url.rfind(':') + 1);
  for (const std::string host : {"127.0.0.1", "localhost", "[::1]"}) {
    auto reply = server.post("/v1/job-inputs", {{"filename", "a.csv"}}, {{"Host", host}});
    INFO(host << ": " << reply.body);
    REQUIRE(reply.status == 200);
    for (const char* field : {"upload_url", "complete_url"})
      CHECK(reply.json["upload"][field].get<std::string>().rfind("http://" + host + ":" + port + "/", 0) == 0);
  }
  // A proxy's public name (no port: its default) and an explicit port are kept as sent.
  auto proxied = server.post("/v1/job-inputs", {{"filename", "a.csv"}}, {{"Host", "grid.example.org"}});
  CHECK(proxied.json["upload"]["upload_url"].get<std::string>().rfind("http://grid.example.org/", 0) == 0);
  auto explicit_port = server.post("/v1/job-inputs", {{"filename", "a.csv"}}, {{"Host", "127.0.0.1:9"}});
  CHECK(explicit_port.json["upload"]["upload_url"].get<std::string>().rfind("http://127.0.0.1:9/", 0) == 0);
}
