#include <catch2/catch.hpp>

#include "store/schema.hpp"
#include "store/sqlite.hpp"
#include "store_fixtures.hpp"

using namespace jgrid;
using namespace jgrid::store;
using testing::TempDir;

namespace {

model::Delivery delivery(const std::string& id, const std::string& job, std::int64_t next_ms,
                         const std::string& state = "pending") {
  return {id, job, "job.completed", R"({"event":"job.completed"})", state, 0, next_ms, next_ms, ""};
}

}  // namespace

TEST_CASE("store::pending_deliveries lists pending rows soonest first and survives a reopen", "[store][callback]") {
  TempDir dir;
  const std::string path = dir.file("jgrid.db").string();
  {
    WriteBatch batch = testing::jobs_batch({testing::make_job(1, model::JobStatus::completed)});
    batch.deliveries = {delivery("dlv_b", "job_b", 300), delivery("dlv_a", "job_a", 100),
                        delivery("dlv_c", "job_c", 200, "delivered")};
    REQUIRE(testing::open_store(path)->commit(batch).ok());
  }
  auto store = testing::open_store(path);
  auto pending = store->pending_deliveries(10);
  REQUIRE(pending.size() == 2);
  CHECK(pending[0].id == "dlv_a");
  CHECK(pending[1].id == "dlv_b");
  CHECK(pending[1].body == R"({"event":"job.completed"})");
  CHECK(store->pending_deliveries(1).size() == 1);
  CHECK(store->list_deliveries("job_c").at(0).state == "delivered");
  CHECK(store->list_deliveries("job_x").empty());
}

TEST_CASE("store::open migrates a schema-1 file to the callback outbox and keeps its jobs", "[store][callback]") {
  TempDir dir;
  const std::string path = dir.file("old.db").string();
  {
    auto conn = sql::Connection::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, 1000);
    REQUIRE(conn.ok());
    std::vector<MigrationStep> first_step(migration_steps().begin(), migration_steps().begin() + 1);
    REQUIRE(migrate(**conn, first_step).ok());
    (*conn)->exec(
        "INSERT INTO jobs (id, workspace, status, workload_type, gpu_vendor, created_ms, updated_ms, doc) "
        "VALUES ('job_old', 'local', 'completed', 'inference', 'amd', 1, 1, '{}')");
    REQUIRE(read_schema_version(**conn) == 1);
  }
  auto store = testing::open_store(path);
  CHECK(store->count_jobs() == 1);
  WriteBatch batch;
  batch.deliveries = {delivery("dlv_1", "job_old", 5)};
  REQUIRE(store->commit(batch).ok());
  CHECK(store->pending_deliveries(5).size() == 1);
}

TEST_CASE("store::pending_deliveries pages after a cursor, ties broken by id", "[store][callback]") {
  auto store = testing::open_store(":memory:");
  WriteBatch batch;
  batch.deliveries = {delivery("dlv_c", "job_c", 100), delivery("dlv_a", "job_a", 100), delivery("dlv_b", "job_b", 50),
                      delivery("dlv_d", "job_d", 200)};
  REQUIRE(store->commit(batch).ok());
  std::vector<std::string> seen;
  DeliveryCursor after;
  for (auto page = store->pending_deliveries(2, after); !page.empty(); page = store->pending_deliveries(2, after)) {
    for (const auto& d : page) seen.push_back(d.id);
    after = {page.back().next_attempt_ms, page.back().id};
  }
  CHECK(seen == std::vector<std::string>{"dlv_b", "dlv_a", "dlv_c", "dlv_d"});
}
