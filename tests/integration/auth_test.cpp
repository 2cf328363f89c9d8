// docs/api.md §2 scope column and §4: every route of the route table is checked
// with no key, a revoked or unknown key, a key without its scopes, another
// workspace's key, and a key holding just one of its scopes, on both framings.
// The table drives the test, so a new route is covered the day it is added.
#include "api/route_table.hpp"
#include "test_server.hpp"

using jgrid::api::AccessKind;
using jgrid::api::ApiKey;
using jgrid::api::Route;
using jgrid::test::HttpReply;
using jgrid::test::Json;
using jgrid::test::rocm_example;
using jgrid::test::TestServer;
using jgrid::test::TestServerOptions;

namespace {

const std::string k_service_token = "svc_token_0123456789";
const std::vector<std::string> k_all_scopes = {"jobs:read", "jobs:write", "jobs:submit", "jobs:estimate",
                                               "logs:read", "sim:reset"};

std::string scope_key(const std::string& workspace, const std::string& scope) {
  std::string key = "jg_" + workspace + "_" + scope;
  for (auto& c : key) c = c == ':' ? '_' : c;
  return key;
}

std::vector<ApiKey> test_keys() {
  std::vector<ApiKey> keys = {{"jg_w1_all_0001", "w1", k_all_scopes, false},
                              {"jg_w1_none_001", "w1", {}, false},
                              {"jg_w2_all_0001", "w2", k_all_scopes, false},
                              {"jg_w1_revoked1", "w1", k_all_scopes, true}};
  for (const auto& scope : k_all_scopes) keys.push_back({scope_key("w1", scope), "w1", {scope}, false});
  return keys;
}

TestServerOptions keyed_options() {
  TestServerOptions options;
  options.configure = [](jgrid::api::ServerOptions& server) {
    server.auth.keys_required = true;
    server.auth.keys = test_keys();
    server.auth.service_token = k_service_token;
  };
  return options;
}

httplib::Headers bearer(const std::string& key) { return {{"Authorization", "Bearer " + key}}; }

bool is_stream(const Route& route) {
  return route.pattern == "/v1/events" || route.pattern.find("/logs/live") != std::string::npos;
}

// Ids the captured segments stand for, all in workspace w1.
struct Fixture {
  std::string job_id, artifact_id, input_id, input_token, node_id;
};

// A body the route accepts past its access check (the complete route checks
// the upload token itself, after the key).
std::string body_for(const Route& route, const Fixture& fixture) {
  if (route.segments.back() == "complete") return Json{{"token", fixture.input_token}}.dump();
  bool job_body = route.pattern.find("/jobs") != std::string::npos && route.segments.back() != "cancel" &&
                  route.pattern.find("download") == std::string::npos;
  return job_body ? rocm_example().dump() : "{}";
}

// Sends `route` with `path` and `headers`; a stream is cut after its head.
HttpReply call(const TestServer& server, const Fixture& fixture, const Route& route, const std::string& path,
               httplib::Headers headers) {
  auto client = server.client();
  if (route.method == "GET" && is_stream(route)) {
    HttpReply reply;
    client.Get(path.c_str(), headers, [&](const httplib::Response& response) {
      reply.status = response.status;
      reply.headers = response.headers;
      return response.status >= 400;  // errors: read the JSON body
    }, [&](const char* data, std::size_t size) {
      reply.body.append(data, size);
      return true;
    });
    reply.json = Json::parse(reply.body, nullptr, false);
    return reply;
  }
  httplib::Request request;
  request.method = route.method;
  request.path = path;
  request.headers = std::move(headers);
  if (route.method == "POST" || route.method == "PUT") {
    request.body = body_for(route, fixture);
    request.set_header("Content-Type", "application/json");
  }
  auto result = client.send(request);
  REQUIRE(result);
  HttpReply reply{result->status, result->body, result->headers, Json()};
  reply.json = Json::parse(reply.body, nullptr, false);
  return reply;
}

// The route's pattern with every capture replaced by an id of `fixture`.
std::string fill(const Route& route, const Fixture& fixture) {
  std::string path;
  for (const auto& segment : route.segments) {
    std::string part = segment;
    if (segment == "{id}") part = route.pattern.find("/nodes/") != std::string::npos ? fixture.node_id : fixture.job_id;
    else if (segment == "{aid}") part = fixture.artifact_id;
    else if (segment == "{iid}") part = fixture.input_id;
    else if (segment == "{fid}") part = "flt_unknown";
    else if (segment == "{op}") part = "cordon";
    else if (segment == "{*}") part = "index.html";
    else if (segment.front() == '{') FAIL("no test value for capture " << segment << " of " << route.pattern);
    path += "/" + part;
  }
  return path.empty() ? "/" : path;
}

// Routes whose captures name objects of one workspace.
bool names_workspace_object(const Route& route) {
  return route.pattern.find("{id}") != std::string::npos && route.pattern.find("/nodes/") == std::string::npos;
}

Fixture make_fixture(const TestServer& server) {
  Fixture fixture;
  auto submitted = server.post("/v1/jobs", rocm_example(), bearer("jg_w1_all_0001"));
  INFO(submitted.body);
  REQUIRE(submitted.status == 202);
  fixture.job_id = submitted.json["job_id"];
  for (int i = 0; i < 3000; ++i) {
    auto job = server.get("/v1/jobs/" + fixture.job_id, bearer("jg_w1_all_0001"));
    REQUIRE(job.status == 200);
    if (job.json["status"] == "completed" || job.json["status"] == "failed") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  auto artifacts = server.get("/v1/jobs/" + fixture.job_id + "/artifacts", bearer("jg_w1_all_0001"));
  REQUIRE(artifacts.status == 200);
  REQUIRE(!artifacts.json["artifacts"].empty());
  fixture.artifact_id = artifacts.json["artifacts"][0]["artifact_id"];
  auto input = server.post("/v1/job-inputs", Json{{"filename", "data.txt"}, {"kind", "input"}},
                           bearer("jg_w1_all_0001"));
  INFO(input.body);
  REQUIRE(input.status == 200);
  fixture.input_id = input.json["upload"]["input_id"];
  fixture.input_token = input.json["upload"]["token"];
  auto nodes = server.get("/v1/nodes", bearer("jg_w1_all_0001"));
  REQUIRE(nodes.status == 200);
  fixture.node_id = nodes.json["nodes"][0]["node_id"];
  return fixture;
}

}  // namespace

TEST_CASE("api auth: every keyed route refuses a missing, unknown or revoked key with 401", "[api][auth]") {
  TestServer server(keyed_options());
  Fixture fixture = make_fixture(server);
  int checked = 0;
  for (const auto& route : jgrid::api::routes()) {
    if (route.access.kind != AccessKind::scopes) continue;
    std::string path = fill(route, fixture);
    for (const auto& headers : {httplib::Headers{}, bearer("jg_unknown_key"), bearer("jg_w1_revoked1"),
                                httplib::Headers{{"Authorization", "Basic dXNlcjpwdw=="}}}) {
      auto reply = call(server, fixture, route, path, headers);
      INFO(route.method << " " << path << ": " << reply.body);
      CHECK(reply.status == 401);
      CHECK(reply.json["error"]["code"] == "UNAUTHORIZED");
      CHECK(reply.header("WWW-Authenticate").rfind("Bearer", 0) == 0);
    }
    ++checked;
  }
  CHECK(checked >= 25);
}

TEST_CASE("api auth: a key without the route's scope gets 403 naming the scopes", "[api][auth]") {
  TestServer server(keyed_options());
  Fixture fixture = make_fixture(server);
  for (const auto& route : jgrid::api::routes()) {
    if (route.access.kind != AccessKind::scopes) continue;
    std::string path = fill(route, fixture);
    auto reply = call(server, fixture, route, path, bearer("jg_w1_none_001"));
    INFO(route.method << " " << path << ": " << reply.body);
    CHECK(reply.status == 403);
    CHECK(reply.json["error"]["code"] == "FORBIDDEN");
    std::string message = reply.json["error"].value("message", "");
    for (auto scope : route.access.any_of) CHECK(message.find(std::string(scope)) != std::string::npos);
    // A key holding only scopes the route does not accept is refused too.
    for (const auto& scope : k_all_scopes) {
      bool accepted = false;
      for (auto wanted : route.access.any_of) accepted = accepted || wanted == scope;
      if (accepted) continue;
      CHECK(call(server, fixture, route, path, bearer(scope_key("w1", scope))).status == 403);
    }
  }
}

TEST_CASE("api auth: each accepted scope alone admits the route on both framings", "[api][auth]") {
  TestServer server(keyed_options());
  Fixture fixture = make_fixture(server);
  bool saw_mcp = false;
  for (const auto& route : jgrid::api::routes()) {
    if (route.access.kind != AccessKind::scopes) continue;
    saw_mcp = saw_mcp || route.framing == jgrid::model::Framing::envelope;
    std::string path = fill(route, fixture);
    for (auto scope : route.access.any_of) {
      auto reply = call(server, fixture, route, path, bearer(scope_key("w1", std::string(scope))));
      INFO(route.method << " " << path << " with " << scope << ": " << reply.body);
      CHECK(reply.status != 401);
      CHECK(reply.status != 403);
      if (names_workspace_object(route)) CHECK(reply.status != 404);
    }
  }
  CHECK(saw_mcp);
}

TEST_CASE("api auth: another workspace's jobs, inputs and artifacts are 404 and absent from lists",
          "[api][auth]") {
  TestServer server(keyed_options());
  Fixture fixture = make_fixture(server);
  for (const auto& route : jgrid::api::routes()) {
    bool owned = names_workspace_object(route) || route.pattern.find("{iid}") != std::string::npos;
    if (route.access.kind != AccessKind::scopes || !owned) continue;
    std::string path = fill(route, fixture);
    auto reply = call(server, fixture, route, path, bearer("jg_w2_all_0001"));
    INFO(route.method << " " << path << ": " << reply.body);
    CHECK(reply.status == 404);
    CHECK(reply.json["error"]["code"] == "NOT_FOUND");
  }
  for (const std::string list : {"/v1/jobs", "/v1/mcp/jobs", "/v1/job-inputs"}) {
    auto mine = server.get(list, bearer("jg_w1_all_0001"));
    auto theirs = server.get(list, bearer("jg_w2_all_0001"));
    INFO(list << ": " << mine.body << " / " << theirs.body);
    REQUIRE(mine.status == 200);
    REQUIRE(theirs.status == 200);
    CHECK(mine.body.find(list == "/v1/job-inputs" ? fixture.input_id : fixture.job_id) != std::string::npos);
    CHECK(theirs.body.find(fixture.job_id) == std::string::npos);
    CHECK(theirs.body.find(fixture.input_id) == std::string::npos);
  }
  // A job of w2 may not use w1's input.
  Json body = rocm_example();
  body["input_files"] = Json::array({fixture.input_id});
  CHECK(server.post("/v1/jobs", body, bearer("jg_w2_all_0001")).status == 404);
}

TEST_CASE("api auth: open and signed routes need no key", "[api][auth]") {
  TestServer server(keyed_options());
  Fixture fixture = make_fixture(server);
  for (const std::string path : {"/healthz", "/readyz", "/v1/health", "/metrics", "/openapi.json", "/"}) {
    INFO(path);
    CHECK(server.get(path).status == 200);
  }
  auto download = server.post("/v1/jobs/" + fixture.job_id + "/artifacts/" + fixture.artifact_id + "/download",
                              Json::object(), bearer("jg_w1_all_0001"));
  REQUIRE(download.status == 200);
  std::string url = download.json["url"];
  auto bytes = server.get(url.substr(server.url.size()));
  CHECK(bytes.status == 200);
  auto ticket = server.post("/v1/job-inputs", Json{{"filename", "up.txt"}}, bearer("jg_w1_all_0001"));
  REQUIRE(ticket.status == 200);
  std::string upload = ticket.json["upload"]["upload_url"];
  CHECK(server.put_raw(upload.substr(server.url.size()), "hello").status == 200);
}

TEST_CASE("api auth: /oauth/introspect answers for keys with the service token only", "[api][auth]") {
  TestServer server(keyed_options());
  auto form = [&](const std::string& body, const httplib::Headers& headers) {
    auto client = server.client();
    auto result = client.Post("/oauth/introspect", headers, body, "application/x-www-form-urlencoded");
    REQUIRE(result);
    HttpReply reply{result->status, result->body, result->headers, Json::parse(result->body, nullptr, false)};
    return reply;
  };
  CHECK(form("token=jg_w1_all_0001", {}).status == 401);
  CHECK(form("token=jg_w1_all_0001", bearer("jg_w1_all_0001")).status == 401);
  CHECK(form("token=jg_w1_all_0001", bearer("wrong_service_token")).status == 401);

  auto active = form("token=jg_w1_all_0001", bearer(k_service_token));
  INFO(active.body);
  REQUIRE(active.status == 200);
  CHECK(active.json["active"] == true);
  CHECK(active.json["workspace_id"] == "w1");
  CHECK(active.json["scope"] == "jobs:read jobs:write jobs:submit jobs:estimate logs:read sim:reset");
  CHECK(active.json["aud"] == "jgrid-local");
  CHECK(active.json["iss"].is_string());
  CHECK(active.json["sub"].get<std::string>().rfind("key_", 0) == 0);
  CHECK(active.json["exp"].is_number_integer());
  CHECK(active.body.find("jg_w1_all_0001") == std::string::npos);

  auto json = server.post("/oauth/introspect", Json{{"token", "jg_w2_all_0001"}}, bearer(k_service_token));
  REQUIRE(json.status == 200);
  CHECK(json.json["workspace_id"] == "w2");
  CHECK(form("token=jg_w1_revoked1", bearer(k_service_token)).json == Json{{"active", false}});
  CHECK(form("token=nope", bearer(k_service_token)).json == Json{{"active", false}});
  CHECK(form("other=1", bearer(k_service_token)).status == 400);
}

TEST_CASE("api auth off: any bearer or none is workspace local; introspection needs a service token",
          "[api][auth]") {
  TestServer server;
  std::string id = server.submit(rocm_example());
  CHECK(server.get("/v1/jobs/" + id, bearer("anything")).status == 200);
  CHECK(server.get("/v1/jobs/" + id).status == 200);
  CHECK(server.post("/oauth/introspect", Json{{"token", "x"}}).status == 401);
}

TEST_CASE("api auth: an upload is completed by a key of its workspace or by its upload token", "[api][auth][inputs]") {
  TestServer server(keyed_options());
  auto slot = [&] {
    auto ticket = server.post("/v1/job-inputs", Json{{"filename", "up.txt"}}, bearer("jg_w1_all_0001"));
    REQUIRE(ticket.status == 200);
    Json upload = ticket.json["upload"];
    std::string put = upload["upload_url"];
    REQUIRE(server.put_raw(put.substr(server.url.size()), "hello").status == 200);
    return upload;
  };
  auto complete = [&](const Json& upload, const Json& body, const httplib::Headers& headers) {
    std::string url = upload["complete_url"];
    return server.post(url.substr(server.url.size()), body, headers);
  };
  Json by_key = slot();  // the hosted API's clients: their key, no body at all
  auto keyed = complete(by_key, Json::object(), bearer("jg_w1_all_0001"));
  INFO(keyed.body);
  CHECK(keyed.status == 200);
  CHECK(keyed.json["ready"] == true);

  Json by_token = slot();  // a key-less uploader: the token in the body, or as the bearer
  CHECK(complete(by_token, Json::object(), {}).status == 403);
  CHECK(complete(by_token, Json{{"token", "wrong"}}, bearer("jg_w1_all_0001")).status == 403);
  CHECK(complete(by_token, Json{{"token", by_token["token"]}}, {}).status == 200);
  Json by_bearer_token = slot();
  CHECK(complete(by_bearer_token, Json::object(), bearer(by_bearer_token["token"])).status == 200);

  Json other = slot();  // another workspace's key does not see it; a key without the scope is refused
  CHECK(complete(other, Json::object(), bearer("jg_w2_all_0001")).status == 404);
  auto unscoped = complete(other, Json::object(), bearer("jg_w1_none_001"));
  CHECK(unscoped.status == 403);
  CHECK(unscoped.json["error"]["message"].get<std::string>().find("jobs:submit") != std::string::npos);
}
