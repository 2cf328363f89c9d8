#include "store/writes.hpp"

#include "store/schema.hpp"
#include "store_fixtures.hpp"

using namespace jgrid;
using namespace jgrid::store;

namespace {

std::unique_ptr<sql::Connection> migrated() {
  auto conn = sql::Connection::open(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, 1000);
  REQUIRE(conn.ok());
  REQUIRE(migrate(**conn, migration_steps()).ok());
  return std::move(conn).value();
}

std::string column(sql::Connection& conn, const std::string& sql) {
  auto query = conn.query(sql);
  REQUIRE(query.next());
  return std::string(query.text(0));
}

}  // namespace

TEST_CASE("store::apply_batch fills the job columns that queries filter on", "[store]") {
  auto conn = migrated();
  auto job = testing::make_job(1, model::JobStatus::running);
  job.workspace = "team";
  job.spec.edit().workload_type = model::WorkloadType::fine_tuning;
  job.spec.edit().framework = "";
  job.spec.edit().runtime = "rocm";
  job.idempotency_key = "k";
  job.stderr_tail = "boom\n";
  apply_batch(*conn, testing::jobs_batch({job}));
  const std::string where = " FROM jobs WHERE id = 'job_0001'";
  CHECK(column(*conn, "SELECT workspace" + where) == "team");
  CHECK(column(*conn, "SELECT status" + where) == "running");
  CHECK(column(*conn, "SELECT workload_type" + where) == "fine-tuning");
  CHECK(column(*conn, "SELECT gpu_vendor" + where) == "amd");
  CHECK(column(*conn, "SELECT idempotency_key" + where) == "k");
  CHECK(column(*conn, "SELECT stderr_tail" + where) == "boom\n");
}

TEST_CASE("store::apply_batch upserts jobs and settings, inserts events and logs", "[store]") {
  auto conn = migrated();
  WriteBatch batch = testing::jobs_batch({testing::make_job(1), testing::make_job(1, model::JobStatus::failed)});
  batch.events = {testing::make_event(1, "job_0001", 1)};
  batch.logs = {testing::make_log("job_0001", 1)};
  batch.settings = {{"k", "1"}, {"k", "2"}};
  apply_batch(*conn, batch);
  CHECK(conn->scalar("SELECT COUNT(*) FROM jobs") == 1);
  CHECK(column(*conn, "SELECT status FROM jobs") == "failed");
  CHECK(column(*conn, "SELECT value FROM settings WHERE key = 'k'") == "2");
  CHECK(conn->scalar("SELECT COUNT(*) FROM events") == 1);
  CHECK(conn->scalar("SELECT COUNT(*) FROM logs") == 1);

  WriteBatch again;
  again.logs = {testing::make_log("job_0001", 1)};
  CHECK_THROWS_AS(apply_batch(*conn, again), sql::SqliteError);
}

TEST_CASE("store::apply_batch writes every field of many log lines, in order", "[store]") {
  auto conn = migrated();
  WriteBatch batch;
  for (int n = 1; n <= 150; ++n) batch.logs.push_back(testing::make_log("job_0001", n, n % 5 ? "stdout" : "stderr"));
  batch.logs[70].truncated = true;
  apply_batch(*conn, batch);  // more than one statement's worth of rows, and a remainder
  auto query = conn->query(
      "SELECT job_id, sequence, stream, category, source, message, truncated, created_ms FROM logs ORDER BY sequence");
  for (const auto& expected : batch.logs) {
    REQUIRE(query.next());
    CHECK(query.text(0) == expected.job_id);
    CHECK(query.integer(1) == expected.sequence);
    CHECK(query.text(2) == expected.stream);
    CHECK(query.text(3) == expected.category);
    CHECK(query.text(4) == expected.source);
    CHECK(query.text(5) == expected.message);
    CHECK(query.integer(6) == (expected.truncated ? 1 : 0));
    CHECK(query.integer(7) == expected.created_ms);
  }
  CHECK_FALSE(query.next());
}

TEST_CASE("store::WriteBatch::empty is true only with nothing to write", "[store]") {
  WriteBatch batch;
  CHECK(batch.empty());
  batch.settings = {{"k", "v"}};
  CHECK_FALSE(batch.empty());
  batch = WriteBatch{};
  batch.inputs.emplace_back();
  CHECK_FALSE(batch.empty());
}

TEST_CASE("store::apply_batch keeps an outbox row's body and updates its attempts", "[store][callback]") {
  auto conn = migrated();
  model::Delivery d{"dlv_1", "job_1", "job.completed", R"({"a":1})", "pending", 0, 1000, 1000, ""};
  WriteBatch first;
  first.deliveries.push_back(d);
  apply_batch(*conn, first);
  d.body = "changed";
  d.attempts = 2;
  d.next_attempt_ms = 5000;
  d.last_error = "HTTP 500";
  WriteBatch second;
  second.deliveries.push_back(d);
  apply_batch(*conn, second);
  CHECK(column(*conn, "SELECT body FROM callback_outbox WHERE id = 'dlv_1'") == R"({"a":1})");
  CHECK(column(*conn, "SELECT last_error FROM callback_outbox WHERE id = 'dlv_1'") == "HTTP 500");
  CHECK(conn->scalar("SELECT attempts FROM callback_outbox") == 2);
  // One delivery per job event: a second row for job_1's job.completed fails the batch.
  WriteBatch duplicate;
  duplicate.deliveries.push_back({"dlv_2", "job_1", "job.completed", "{}", "pending", 0, 0, 0, ""});
  CHECK_THROWS(apply_batch(*conn, duplicate));
}
