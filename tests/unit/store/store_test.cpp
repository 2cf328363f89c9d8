#include "jgrid/store/store.hpp"

#include <atomic>
#include <thread>

#include "store/sqlite.hpp"
#include "store_fixtures.hpp"

using namespace jgrid;
using namespace jgrid::store;
using testing::make_event;
using testing::make_job;
using testing::make_log;
using testing::TempDir;

namespace {

WriteBatch everything_batch() {
  WriteBatch batch = testing::jobs_batch({make_job(1), make_job(2, model::JobStatus::completed)});
  batch.events = {make_event(1, testing::job_id(1), 1), make_event(2, testing::job_id(2), 1)};
  batch.logs = {make_log(testing::job_id(1), 1), make_log(testing::job_id(1), 2, "stderr")};
  batch.artifacts = {{"art_1", testing::job_id(2), "result.json", "application/json", 17, "abc", 5}};
  model::JobInput input;
  input.id = "inp_1";
  input.filename = "data.csv";
  batch.inputs = {input};
  batch.settings = {{"maintenance", "on"}};
  return batch;
}

}  // namespace

TEST_CASE("store::commit makes a job durable across a reopen of the file", "[store]") {
  TempDir dir;
  const std::string path = dir.file("jgrid.db").string();
  REQUIRE(testing::open_store(path)->commit(everything_batch()).ok());

  auto store = testing::open_store(path);
  CHECK(store->count_jobs() == 2);
  auto by_status = store->count_jobs_by_status();
  CHECK(by_status["completed"] == 1);
  CHECK(by_status.size() == 2);
  CHECK(store->get_job(testing::job_id(2))->status == model::JobStatus::completed);
  CHECK(store->live_jobs().size() == 1);
  CHECK(store->counters().max_event_seq == 2);
  LogQuery logs;
  logs.job_id = testing::job_id(1);
  CHECK(store->list_logs(logs).size() == 2);
  CHECK(store->get_artifact("art_1")->size_bytes == 17);
  CHECK(store->get_input("inp_1")->filename == "data.csv");
  CHECK(store->get_setting("maintenance") == "on");
}

TEST_CASE("store::open puts a file database in WAL mode", "[store]") {
  TempDir dir;
  const std::string path = dir.file("jgrid.db").string();
  auto store = testing::open_store(path);
  auto conn = sql::Connection::open(path, SQLITE_OPEN_READWRITE, 1000);
  REQUIRE(conn.ok());
  auto mode = (*conn)->query("PRAGMA journal_mode");
  REQUIRE(mode.next());
  CHECK(mode.text(0) == "wal");
}

TEST_CASE("store::open names the path it cannot open", "[store]") {
  TempDir dir;
  const std::string path = dir.file("no/such/dir/jgrid.db").string();
  auto store = Store::open(StoreOptions{path});
  REQUIRE_FALSE(store.ok());
  CHECK(store.error().code == "STORE_OPEN_FAILED");
  CHECK_THAT(store.error().message, Catch::Contains(path));
}

TEST_CASE("store::open works in memory, one database per store", "[store]") {
  auto a = testing::open_store(":memory:");
  auto b = testing::open_store(":memory:");
  REQUIRE(a->commit(everything_batch()).ok());
  CHECK(a->count_jobs() == 2);
  CHECK(b->count_jobs() == 0);
  CHECK(a->get_job(testing::job_id(1)));
}

TEST_CASE("store::commit from 16 threads makes every batch durable", "[store]") {
  TempDir dir;
  const std::string path = dir.file("jgrid.db").string();
  constexpr int k_threads = 16, k_per_thread = 20;
  {
    auto store = testing::open_store(path);
    std::vector<std::thread> threads;
    std::atomic<int> failures{0};
    for (int t = 0; t < k_threads; ++t) {
      threads.emplace_back([&, t] {
        for (int i = 0; i < k_per_thread; ++i) {
          const int n = t * k_per_thread + i + 1;
          WriteBatch batch = testing::jobs_batch({make_job(n)});
          batch.events = {make_event(n, testing::job_id(n), 1)};
          if (!store->commit(std::move(batch)).ok()) ++failures;
          // Durable before commit returned: visible to a read right away.
          if (!store->get_job(testing::job_id(n))) ++failures;
        }
      });
    }
    for (auto& thread : threads) thread.join();
    CHECK(failures == 0);
  }
  auto reopened = testing::open_store(path);
  CHECK(reopened->count_jobs() == k_threads * k_per_thread);
  CHECK(reopened->counters().max_event_seq == k_threads * k_per_thread);
  CHECK(reopened->list_events(EventQuery{.limit = 1000}).size() == k_threads * k_per_thread);
}

TEST_CASE("store::committed moves once a commit has returned", "[store]") {
  auto store = testing::open_store(":memory:");
  const auto before = store->committed().version();
  REQUIRE(store->commit(testing::jobs_batch({make_job(1)})).ok());
  CHECK(store->committed().version() > before);
}

TEST_CASE("store::flush waits for queued batches", "[store]") {
  auto store = testing::open_store(":memory:");
  for (int n = 1; n <= 20; ++n) {
    WriteBatch batch;
    batch.logs = {make_log("job_a", n)};
    store->commit_async(std::move(batch));
  }
  store->flush();
  CHECK(store->max_log_sequence("job_a") == 20);
}

TEST_CASE("store::commit_async batches are written when the store closes", "[store]") {
  TempDir dir;
  const std::string path = dir.file("jgrid.db").string();
  {
    auto store = testing::open_store(path);
    for (int n = 1; n <= 20; ++n) {
      WriteBatch batch;
      batch.logs = {make_log("job_a", n)};
      store->commit_async(std::move(batch));
    }
  }
  CHECK(testing::open_store(path)->max_log_sequence("job_a") == 20);
}

TEST_CASE("store::commit on a file fails only the bad batch", "[store]") {
  TempDir dir;
  auto store = testing::open_store(dir.file("jgrid.db").string());
  WriteBatch logs;
  logs.logs = {make_log("job_a", 1)};
  REQUIRE(store->commit(std::move(logs)).ok());
  WriteBatch dup = testing::jobs_batch({make_job(1)});
  dup.logs = {make_log("job_a", 1)};
  auto status = store->commit(std::move(dup));
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().code == "STORE_WRITE_FAILED");
  CHECK_FALSE(store->get_job(testing::job_id(1)));
  REQUIRE(store->commit(testing::jobs_batch({make_job(2)})).ok());
  CHECK(store->count_jobs() == 1);
}

TEST_CASE("store::open honours synchronous_full = false", "[store]") {
  TempDir dir;
  StoreOptions options;
  options.path = dir.file("jgrid.db").string();
  options.synchronous_full = false;
  auto store = Store::open(options);
  REQUIRE(store.ok());
  REQUIRE((*store)->commit(testing::jobs_batch({make_job(1)})).ok());
  CHECK((*store)->count_jobs() == 1);
}

TEST_CASE("store::get_job reads tails back after a reopen, repaired to UTF-8", "[store]") {
  TempDir dir;
  const std::string path = dir.file("jgrid.db").string();
  auto job = make_job(1);
  job.stdout_tail = std::string(9000, 'x') + "\n";
  job.stderr_tail = "bad \xff byte\n";
  {
    auto store = testing::open_store(path);
    REQUIRE(store->commit(testing::jobs_batch({job})).ok());
    CHECK(store->get_job(job.id)->stderr_tail == "bad \xEF\xBF\xBD byte\n");
  }
  auto back = testing::open_store(path)->get_job(job.id);
  REQUIRE(back);
  CHECK(back->stdout_tail == job.stdout_tail);
  CHECK(back->stderr_tail == "bad \xEF\xBF\xBD byte\n");
}

TEST_CASE("store::get_job never returns an older job than the last commit", "[store]") {
  TempDir dir;
  auto store = testing::open_store(dir.file("jgrid.db").string());
  auto job = make_job(1);
  std::atomic<bool> stop{false};
  std::atomic<int> regressions{0};
  REQUIRE(store->commit(testing::jobs_batch({job})).ok());
  std::vector<std::thread> readers;
  for (int t = 0; t < 4; ++t)
    readers.emplace_back([&] {
      int last = 0;
      while (!stop) {
        const int attempts = store->get_job(job.id)->attempts;
        if (attempts < last) ++regressions;
        last = attempts;
      }
    });
  for (int i = 1; i <= 200; ++i) {
    job.attempts = i;
    REQUIRE(store->commit(testing::jobs_batch({job})).ok());
    REQUIRE(store->get_job(job.id)->attempts == i);
  }
  stop = true;
  for (auto& reader : readers) reader.join();
  CHECK(regressions == 0);
  CHECK(testing::open_store(dir.file("jgrid.db").string())->get_job(job.id)->attempts == 200);
}

TEST_CASE("store::ping answers for a working store, in memory and on a file", "[store]") {
  TempDir dir;
  auto file = testing::open_store(dir.file("jgrid.db").string());
  CHECK(file->ping().ok());
  auto memory = testing::open_store(":memory:");
  CHECK(memory->ping().ok());
}

TEST_CASE("store::ping fails naming the database once its file is deleted or replaced", "[store]") {
  TempDir dir;
  const auto path = dir.file("jgrid.db");
  auto store = testing::open_store(path.string());
  REQUIRE(store->commit(testing::jobs_batch({make_job(1)})).ok());
  std::filesystem::remove(path);
  auto gone = store->ping();
  REQUIRE_FALSE(gone.ok());
  CHECK(gone.error().code == "STORE_UNAVAILABLE");
  CHECK_THAT(gone.error().message, Catch::Contains(path.string()) && Catch::Contains("deleted"));
  // Another file at the same path is not the one the store wrote to.
  testing::open_store(path.string()).reset();
  CHECK_FALSE(store->ping().ok());
}
