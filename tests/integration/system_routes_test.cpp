// docs/api.md §2.10 nodes, §2.11 health and readiness, and the dashboard.
#include <fstream>

#include "test_server.hpp"

using jgrid::test::Json;
using jgrid::test::TestServer;

TEST_CASE("api nodes list the simulated fleet and resolve by id", "[api][nodes]") {
  TestServer server;
  auto reply = server.get("/v1/nodes");
  INFO(reply.body);
  REQUIRE(reply.status == 200);
  REQUIRE(!reply.json["nodes"].empty());
  bool amd = false;
  for (const auto& node : reply.json["nodes"]) {
    for (auto field : {"node_id", "name", "source", "status", "gpu_vendor", "gpu_model", "gpu_count", "gpus_free"})
      CHECK(node.contains(field));
    amd = amd || node["gpu_vendor"] == "amd";
  }
  CHECK(amd);
  std::string id = reply.json["nodes"][0]["node_id"];
  auto one = server.get("/v1/nodes/" + id);
  CHECK(one.status == 200);
  CHECK(one.json["node_id"] == id);
  auto missing = server.get("/v1/nodes/node_missing");
  CHECK(missing.status == 404);
  CHECK(missing.json["error"]["code"] == "NOT_FOUND");
}

TEST_CASE("api health and readiness answer in JSON", "[api][health]") {
  TestServer server;
  auto healthz = server.get("/healthz");
  CHECK(healthz.status == 200);
  CHECK(healthz.json == Json{{"ok", true}, {"service", "jgrid-local"}, {"version", JGRID_VERSION}});
  auto readyz = server.get("/readyz");
  CHECK(readyz.status == 200);
  CHECK(readyz.json["ok"] == true);
  auto health = server.get("/v1/health");
  CHECK(health.status == 200);
  CHECK(health.json["service"] == "jgrid-local");
  CHECK(health.json["ready"] == true);
  CHECK(health.json["fleet"]["nodes"].get<int>() > 0);
}

TEST_CASE("api readiness is 503 naming the engine once it stopped", "[api][health]") {
  TestServer server;
  server.engine().stop();
  auto readyz = server.get("/readyz");
  CHECK(readyz.status == 503);
  CHECK(readyz.json["ok"] == false);
  CHECK(readyz.json["error"]["message"].get<std::string>().find("engine") != std::string::npos);
}

TEST_CASE("api readiness is 503 naming the store and health shows it once the database file is gone",
          "[api][health]") {
  jgrid::test::TestServerOptions options;
  options.file_store = true;
  TestServer server(options);
  REQUIRE(server.get("/readyz").status == 200);
  REQUIRE(server.get("/v1/health").json["store"]["ok"] == true);
  // SQLite keeps writing to a deleted file: everything from now on is lost at exit.
  std::filesystem::remove(server.data_dir / "jgrid.db");
  auto readyz = server.get("/readyz");
  INFO(readyz.body);
  CHECK(readyz.status == 503);
  CHECK(readyz.json["error"]["code"] == "NOT_READY");
  CHECK(readyz.json["error"]["message"].get<std::string>().find("store") != std::string::npos);
  CHECK(readyz.json["error"]["details"]["checks"]["store"] == false);
  CHECK(readyz.json["error"]["details"]["checks"]["engine"] == true);
  auto health = server.get("/v1/health");
  INFO(health.body);
  CHECK(health.status == 200);
  CHECK(health.json["ready"] == false);
  CHECK(health.json["store"]["ok"] == false);
  CHECK(health.json["store"]["error"].get<std::string>().find("jgrid.db") != std::string::npos);
}

TEST_CASE("api serves the embedded dashboard at / and /ui/", "[api][dashboard]") {
  TestServer server;
  auto root = server.get("/");
  CHECK(root.status == 200);
  CHECK(root.header("Content-Type").rfind("text/html", 0) == 0);
  CHECK(root.body.find("jgrid") != std::string::npos);
  CHECK(server.get("/ui/").body == root.body);
  CHECK(server.get("/ui/index.html").body == root.body);
  auto missing = server.get("/ui/nope.js");
  CHECK(missing.status == 404);
  CHECK(missing.json["error"]["code"] == "NOT_FOUND");
}

TEST_CASE("api serves the dashboard from --web-dir when given", "[api][dashboard]") {
  auto dir = std::filesystem::temp_directory_path() / ("jgrid-web-" + jgrid::util::random_hex(4));
  std::filesystem::create_directories(dir / "js");
  std::ofstream(dir / "index.html") << "<!doctype html><title>from disk</title>";
  std::ofstream(dir / "js" / "app.js") << "console.log(1);";
  {
    jgrid::test::TestServerOptions options;
    options.web_dir = dir;
    TestServer server(options);
    CHECK(server.get("/").body.find("from disk") != std::string::npos);
    auto script = server.get("/ui/js/app.js");
    CHECK(script.status == 200);
    CHECK(script.header("Content-Type").rfind("text/javascript", 0) == 0);
    CHECK(server.get("/ui/../secret").status == 404);
  }
  std::filesystem::remove_all(dir);
}
