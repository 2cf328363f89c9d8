#include "store/writer.hpp"

#include <atomic>
#include <chrono>
#include <thread>

#include "store/schema.hpp"
#include "store_fixtures.hpp"

using namespace jgrid;
using namespace jgrid::store;
using testing::make_event;
using testing::make_job;

namespace {

// A migrated in-memory database and a writer on it. The test holds
// `conn_mutex` to keep the writer from starting a transaction.
struct WriterFixture {
  WriterFixture() : conn(open_conn()), writer(*conn, &conn_mutex, [this](auto& batches) { on_commit(batches); }) {}

  void on_commit(std::vector<WriteBatch*>& batches) {
    ++transactions;
    committed_batches += static_cast<int>(batches.size());
  }

  static std::unique_ptr<sql::Connection> open_conn() {
    auto conn = sql::Connection::open(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, 1000);
    REQUIRE(conn.ok());
    REQUIRE(migrate(**conn, migration_steps()).ok());
    return std::move(conn).value();
  }

  void wait_queued(std::size_t n) {
    for (int i = 0; i < 5000 && writer.queued() != n; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    REQUIRE(writer.queued() == n);
  }

  std::int64_t count(const std::string& sql) {
    std::lock_guard lock(conn_mutex);
    return conn->scalar(sql);
  }

  std::mutex conn_mutex;
  std::unique_ptr<sql::Connection> conn;
  std::atomic<int> transactions{0};
  std::atomic<int> committed_batches{0};
  Writer writer;
};

WriteBatch job_with_event(int n, std::int64_t seq) {
  WriteBatch batch = testing::jobs_batch({make_job(n)});
  batch.events = {make_event(seq, testing::job_id(n), 1)};
  return batch;
}

}  // namespace

TEST_CASE("store::Writer merges everything queued during a transaction into one", "[store]") {
  WriterFixture f;
  {
    std::unique_lock hold(f.conn_mutex);
    f.writer.commit_async(job_with_event(0, 1));
    f.wait_queued(0);  // the writer took the first batch and waits for the connection
    for (int n = 1; n <= 100; ++n) f.writer.commit_async(job_with_event(n, n + 1));
    f.wait_queued(100);
  }
  f.writer.flush();
  CHECK(f.count("SELECT COUNT(*) FROM jobs") == 101);
  CHECK(f.count("SELECT COUNT(*) FROM events") == 101);
  CHECK(f.transactions == 2);
}

TEST_CASE("store::Writer writes a job staged twice in one group in its last state", "[store]") {
  WriterFixture f;
  {
    std::unique_lock hold(f.conn_mutex);
    f.writer.commit_async(job_with_event(0, 1));
    f.wait_queued(0);
    f.writer.commit_async(testing::jobs_batch({make_job(1, model::JobStatus::queued)}));
    f.writer.commit_async(testing::jobs_batch({make_job(2), make_job(1, model::JobStatus::assigned)}));
    f.writer.commit_async(testing::jobs_batch({make_job(1, model::JobStatus::running)}));
    f.wait_queued(3);
  }
  f.writer.flush();
  CHECK(f.count("SELECT COUNT(*) FROM jobs") == 3);
  CHECK(f.count("SELECT COUNT(*) FROM jobs WHERE id = 'job_0001' AND status = 'running'") == 1);
  CHECK(f.transactions == 2);
  CHECK(f.committed_batches == 4);
}

TEST_CASE("store::Writer fails only the bad batch of a group, leaving nothing of it", "[store]") {
  WriterFixture f;
  REQUIRE(f.writer.commit(job_with_event(1, 1)).ok());
  Status bad_status;
  std::thread bad_committer;
  {
    std::unique_lock hold(f.conn_mutex);
    f.writer.commit_async(job_with_event(2, 2));
    f.wait_queued(0);
    // Event seq 1 exists: the job of this batch must not be applied either.
    bad_committer = std::thread([&] { bad_status = f.writer.commit(job_with_event(3, 1)); });
    f.wait_queued(1);
    f.writer.commit_async(job_with_event(4, 4));
    f.wait_queued(2);
  }
  bad_committer.join();
  f.writer.flush();
  REQUIRE_FALSE(bad_status.ok());
  CHECK(bad_status.error().code == "STORE_WRITE_FAILED");
  CHECK_THAT(bad_status.error().message, Catch::Contains("UNIQUE") || Catch::Contains("constraint"));
  CHECK(f.count("SELECT COUNT(*) FROM jobs WHERE id = 'job_0003'") == 0);
  CHECK(f.count("SELECT COUNT(*) FROM jobs") == 3);
  CHECK(f.count("SELECT COUNT(*) FROM events") == 3);
  CHECK(f.committed_batches == 3);  // the bad one is not reported as committed
  CHECK_FALSE(f.conn->in_transaction());
}

TEST_CASE("store::Writer::commit returns after its batch is applied", "[store]") {
  WriterFixture f;
  REQUIRE(f.writer.commit(testing::jobs_batch({make_job(1)})).ok());
  CHECK(f.count("SELECT COUNT(*) FROM jobs") == 1);
  CHECK(f.transactions == 1);
}

TEST_CASE("store::Writer applies an async batch queued before a commit first", "[store]") {
  WriterFixture f;
  WriteBatch log_batch;
  log_batch.logs = {testing::make_log("job_0001", 1)};
  f.writer.commit_async(log_batch);
  REQUIRE(f.writer.commit(testing::jobs_batch({make_job(1)})).ok());
  CHECK(f.count("SELECT COUNT(*) FROM logs") == 1);
}

TEST_CASE("store::Writer treats an empty commit as a flush", "[store]") {
  WriterFixture f;
  WriteBatch log_batch;
  log_batch.logs = {testing::make_log("job_0001", 1)};
  f.writer.commit_async(log_batch);
  REQUIRE(f.writer.commit(WriteBatch{}).ok());
  CHECK(f.count("SELECT COUNT(*) FROM logs") == 1);
}

TEST_CASE("store::Writer drains its queue when destroyed", "[store]") {
  auto conn = WriterFixture::open_conn();
  {
    Writer writer(*conn, nullptr, nullptr);
    for (int n = 1; n <= 50; ++n) writer.commit_async(testing::jobs_batch({make_job(n)}));
  }
  CHECK(conn->scalar("SELECT COUNT(*) FROM jobs") == 50);
}

TEST_CASE("store::Writer::run_alone runs between the batches queued around it, in its own transaction", "[store]") {
  WriterFixture f;
  std::int64_t jobs_seen = -1;
  Status status;
  std::thread runner;
  {
    std::unique_lock hold(f.conn_mutex);
    f.writer.commit_async(job_with_event(0, 1));
    f.wait_queued(0);
    f.writer.commit_async(job_with_event(1, 2));
    runner = std::thread([&] {
      status = f.writer.run_alone([&](sql::Connection& conn) {
        jobs_seen = conn.scalar("SELECT COUNT(*) FROM jobs");
        conn.exec("DELETE FROM jobs");
      });
    });
    f.wait_queued(2);
    f.writer.commit_async(job_with_event(2, 3));
    f.wait_queued(3);
  }
  runner.join();
  f.writer.flush();
  REQUIRE(status.ok());
  CHECK(jobs_seen == 2);                                  // after the batches before it
  CHECK(f.count("SELECT COUNT(*) FROM jobs") == 1);       // before the one after it
  CHECK(f.count("SELECT COUNT(*) FROM jobs WHERE id = 'job_0002'") == 1);
  CHECK(f.transactions == 4);  // first batch; second batch; the operation; third batch
}

TEST_CASE("store::Writer::run_alone rolls back an operation that throws", "[store]") {
  WriterFixture f;
  REQUIRE(f.writer.commit(job_with_event(1, 1)).ok());
  Status status = f.writer.run_alone([](sql::Connection& conn) {
    conn.exec("DELETE FROM jobs");
    conn.exec("INSERT INTO nowhere VALUES (1)");
  });
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().code == "STORE_WRITE_FAILED");
  CHECK(f.count("SELECT COUNT(*) FROM jobs") == 1);
  CHECK_FALSE(f.conn->in_transaction());
}
