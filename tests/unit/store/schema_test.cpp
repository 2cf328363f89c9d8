#include "store/schema.hpp"

#include "jgrid/store/store.hpp"
#include "store_fixtures.hpp"

using namespace jgrid::store;
using jgrid::store::testing::TempDir;

namespace {

std::unique_ptr<sql::Connection> open_file(const std::string& path) {
  auto conn = sql::Connection::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, 1000);
  REQUIRE(conn.ok());
  return std::move(conn).value();
}

bool has_table(sql::Connection& conn, const std::string& table) {
  auto query = conn.query("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?1");
  query.bind(1, table);
  return query.next() && query.integer(0) == 1;
}

}  // namespace

TEST_CASE("store::schema_version counts the migration steps", "[store]") {
  CHECK(Store::schema_version() == static_cast<int>(migration_steps().size()));
  CHECK(Store::schema_version() >= 1);
}

TEST_CASE("store::open migrates an empty version-0 file to the current schema", "[store]") {
  TempDir dir;
  const std::string path = dir.file("jgrid.db").string();
  {
    auto conn = open_file(path);
    conn->exec("CREATE TABLE unrelated (x); INSERT INTO unrelated VALUES (1)");
    REQUIRE(read_schema_version(*conn) == 0);
  }
  auto store = testing::open_store(path);
  store.reset();
  auto conn = open_file(path);
  CHECK(read_schema_version(*conn) == Store::schema_version());
  for (const char* table : {"jobs", "events", "logs", "artifacts", "inputs", "settings"}) CHECK(has_table(*conn, table));
  CHECK(conn->scalar("SELECT COUNT(*) FROM unrelated") == 1);
}

TEST_CASE("store::open refuses a database written by a newer version", "[store]") {
  TempDir dir;
  const std::string path = dir.file("jgrid.db").string();
  const int newer = Store::schema_version() + 5;
  open_file(path)->exec("PRAGMA user_version = " + std::to_string(newer));

  auto store = Store::open(StoreOptions{path});
  REQUIRE_FALSE(store.ok());
  CHECK(store.error().code == "STORE_TOO_NEW");
  CHECK_THAT(store.error().message, Catch::Contains(std::to_string(newer)) &&
                                        Catch::Contains(std::to_string(Store::schema_version())) &&
                                        Catch::Contains("upgrade jgrid-local") && Catch::Contains("--data-dir") &&
                                        Catch::Contains(path));
  auto conn = open_file(path);
  CHECK(read_schema_version(*conn) == newer);
  CHECK_FALSE(has_table(*conn, "jobs"));
}

TEST_CASE("store::migrate brings a previous-version file forward and keeps its rows", "[store]") {
  TempDir dir;
  const std::string path = dir.file("old.db").string();
  std::vector<MigrationStep> steps = {{"first", "CREATE TABLE a (x INTEGER)"}};
  auto conn = open_file(path);
  REQUIRE(migrate(*conn, steps).ok());
  conn->exec("INSERT INTO a VALUES (7)");
  REQUIRE(read_schema_version(*conn) == 1);

  steps.push_back({"second", "ALTER TABLE a ADD COLUMN y TEXT NOT NULL DEFAULT 'new'"});
  REQUIRE(migrate(*conn, steps).ok());
  CHECK(read_schema_version(*conn) == 2);
  auto row = conn->query("SELECT x, y FROM a");
  REQUIRE(row.next());
  CHECK(row.integer(0) == 7);
  CHECK(row.text(1) == "new");
}

TEST_CASE("store::migrate applies nothing of a failing run of steps", "[store]") {
  TempDir dir;
  auto conn = open_file(dir.file("bad.db").string());
  std::vector<MigrationStep> steps = {{"good", "CREATE TABLE a (x)"}, {"bad", "CREATE TABLE a (x)"}};
  auto status = migrate(*conn, steps);
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().code == "STORE_OPEN_FAILED");
  CHECK(read_schema_version(*conn) == 0);
  CHECK_FALSE(has_table(*conn, "a"));
  CHECK_FALSE(conn->in_transaction());
}

TEST_CASE("store::migrate is a no-op on a current database", "[store]") {
  auto conn = open_file(":memory:");
  REQUIRE(migrate(*conn, migration_steps()).ok());
  REQUIRE(migrate(*conn, migration_steps()).ok());
  CHECK(read_schema_version(*conn) == Store::schema_version());
}

TEST_CASE("store::open fails with STORE_OPEN_FAILED on a file that is not a database", "[store]") {
  TempDir dir;
  const auto path = dir.file("garbage.db");
  {
    std::FILE* file = std::fopen(path.c_str(), "w");
    REQUIRE(file);
    for (int i = 0; i < 200; ++i) std::fputs("this is not a sqlite database at all\n", file);
    std::fclose(file);
  }
  auto store = Store::open(StoreOptions{path.string()});
  REQUIRE_FALSE(store.ok());
  CHECK(store.error().code == "STORE_OPEN_FAILED");
  CHECK_THAT(store.error().message, Catch::Contains(path.string()));
}

TEST_CASE("store::open brings a version-2 file forward to the status page index", "[store]") {
  TempDir dir;
  const std::string path = dir.file("v2.db").string();
  {
    auto conn = open_file(path);
    const std::vector<MigrationStep> v2(migration_steps().begin(), migration_steps().begin() + 2);
    REQUIRE(migrate(*conn, v2).ok());
    conn->exec("INSERT INTO jobs (id, workspace, status, workload_type, gpu_vendor, created_ms, updated_ms, doc) "
               "VALUES ('job_1', 'local', 'running', 'inference', 'amd', 1, 1, '{}')");
  }
  auto store = testing::open_store(path);
  store.reset();
  auto conn = open_file(path);
  CHECK(read_schema_version(*conn) == Store::schema_version());
  CHECK(conn->scalar("SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name = 'jobs_by_workspace_status'") ==
        1);
  auto plan = conn->query(
      "EXPLAIN QUERY PLAN SELECT id FROM jobs WHERE workspace = 'local' AND status = 'running' ORDER BY id DESC");
  REQUIRE(plan.next());
  CHECK_THAT(std::string(plan.text(3)), Catch::Contains("jobs_by_workspace_status"));
  CHECK(conn->scalar("SELECT COUNT(*) FROM jobs WHERE status = 'running'") == 1);
}

TEST_CASE("store::open brings a version-3 file forward to job counts taken from its rows", "[store]") {
  TempDir dir;
  const std::string path = dir.file("v3.db").string();
  {
    auto conn = open_file(path);
    const std::vector<MigrationStep> v3(migration_steps().begin(), migration_steps().begin() + 3);
    REQUIRE(migrate(*conn, v3).ok());
    for (const char* row : {"'job_1', 'running'", "'job_2', 'completed'", "'job_3', 'completed'"})
      conn->exec(std::string("INSERT INTO jobs (id, status, workspace, workload_type, gpu_vendor, created_ms, "
                             "updated_ms, doc) VALUES (") + row + ", 'local', 'inference', 'amd', 1, 1, '{}')");
  }
  auto store = testing::open_store(path);
  CHECK(store->count_jobs() == 3);
  CHECK(store->count_jobs_by_status() == std::map<std::string, std::int64_t>{{"completed", 2}, {"running", 1}});
}

TEST_CASE("store::open brings a version-5 file forward to job costs summed per workspace from its rows", "[store]") {
  TempDir dir;
  const std::string path = dir.file("v5.db").string();
  {
    auto conn = open_file(path);
    const std::vector<MigrationStep> v5(migration_steps().begin(), migration_steps().begin() + 5);
    REQUIRE(migrate(*conn, v5).ok());
    for (const char* row : {"'job_1', 'w1', '{\"actual_cost_usd\": 1.5}'", "'job_2', 'w1', '{\"actual_cost_usd\": 0.25}'",
                            "'job_3', 'w2', '{\"actual_cost_usd\": null}'", "'job_4', 'w2', '{}'"})
      conn->exec(std::string("INSERT INTO jobs (id, workspace, doc, status, workload_type, gpu_vendor, created_ms, "
                             "updated_ms) VALUES (") + row + ", 'completed', 'inference', 'amd', 1, 1)");
  }
  auto store = testing::open_store(path);
  CHECK(store->spent_usd("w1") == 1.75);
  CHECK(store->spent_usd("w2") == 0);
  store.reset();
  auto conn = open_file(path);
  CHECK(read_schema_version(*conn) == Store::schema_version());
  CHECK(conn->scalar("SELECT COUNT(*) FROM jobs WHERE cost_usd <> 0") == 2);
}

TEST_CASE("store::open brings a version-4 file forward to pages by workload type and by vendor", "[store]") {
  TempDir dir;
  const std::string path = dir.file("v4.db").string();
  {
    auto conn = open_file(path);
    const std::vector<MigrationStep> v4(migration_steps().begin(), migration_steps().begin() + 4);
    REQUIRE(migrate(*conn, v4).ok());
  }
  testing::open_store(path).reset();
  auto conn = open_file(path);
  CHECK(read_schema_version(*conn) == Store::schema_version());
  const std::pair<const char*, const char*> plans[] = {
      {"workload_type = 'training'", "jobs_by_workspace_workload"},
      {"gpu_vendor = 'amd'", "jobs_by_workspace_vendor"},
      {"status = 'running'", "jobs_by_workspace_status"}};
  for (const auto& [filter, index] : plans) {
    auto plan = conn->query(std::string("EXPLAIN QUERY PLAN SELECT id FROM jobs WHERE workspace = 'local' AND ") +
                            filter + " ORDER BY id DESC LIMIT 21");
    REQUIRE(plan.next());
    CHECK_THAT(std::string(plan.text(3)), Catch::Contains(index));
  }
}
