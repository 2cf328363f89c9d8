#include "store_fixtures.hpp"

using namespace jgrid;
using namespace jgrid::store;
using testing::make_event;
using testing::make_log;

namespace {

std::vector<std::int64_t> seqs(const std::vector<model::Event>& events) {
  std::vector<std::int64_t> out;
  for (const auto& event : events) out.push_back(event.seq);
  return out;
}

std::vector<std::int64_t> sequences(const std::vector<model::LogEntry>& entries) {
  std::vector<std::int64_t> out;
  for (const auto& entry : entries) out.push_back(entry.sequence);
  return out;
}

// Events 1..6: job A has 1, 3, 5 (sequence 1..3), job B has 2, 4, and 6 is a node event.
std::unique_ptr<Store> store_with_events() {
  auto store = testing::open_store(":memory:");
  WriteBatch batch;
  batch.events = {make_event(1, "job_a", 1, "job.submitted"), make_event(2, "job_b", 1, "job.submitted"),
                  make_event(3, "job_a", 2, "job.queued"),    make_event(4, "job_b", 2, "job.queued"),
                  make_event(5, "job_a", 3, "job.running"),   make_event(6, "", 0, "node.offline")};
  REQUIRE(store->commit(std::move(batch)).ok());
  return store;
}

// Lines 1..6 of job_a: stdout 1, 2, 5; stderr 3, 6; a platform line 4.
std::unique_ptr<Store> store_with_logs() {
  auto store = testing::open_store(":memory:");
  WriteBatch batch;
  batch.logs = {make_log("job_a", 1), make_log("job_a", 2), make_log("job_a", 3, "stderr"),
                make_log("job_a", 4, "system"), make_log("job_a", 5), make_log("job_a", 6, "stderr"),
                make_log("job_b", 1)};
  batch.logs[2].truncated = true;
  REQUIRE(store->commit(std::move(batch)).ok());
  return store;
}

}  // namespace

TEST_CASE("store::list_events without a job lists every event by seq", "[store]") {
  auto store = store_with_events();
  EventQuery query;
  CHECK(seqs(store->list_events(query)) == std::vector<std::int64_t>{1, 2, 3, 4, 5, 6});
  query.after_seq = 4;
  CHECK(seqs(store->list_events(query)) == std::vector<std::int64_t>{5, 6});
  query.after_seq = 0;
  query.limit = 2;
  CHECK(seqs(store->list_events(query)) == std::vector<std::int64_t>{1, 2});
  CHECK(store->counters().max_event_seq == 6);
}

TEST_CASE("store::list_events of a job pages by its own sequence", "[store]") {
  auto store = store_with_events();
  EventQuery query;
  query.job_id = "job_a";
  CHECK(seqs(store->list_events(query)) == std::vector<std::int64_t>{1, 3, 5});
  query.after_seq = 2;  // a job sequence, not a seq
  CHECK(seqs(store->list_events(query)) == std::vector<std::int64_t>{5});
  CHECK(store->max_event_sequence("job_a") == 3);
  CHECK(store->max_event_sequence("job_zzz") == 0);
}

TEST_CASE("store::list_events filters by type and time", "[store]") {
  auto store = store_with_events();
  EventQuery query;
  query.type = "job.queued";
  CHECK(seqs(store->list_events(query)) == std::vector<std::int64_t>{3, 4});
  query = EventQuery{};
  query.since_ms = make_event(5, "", 0).created_ms;
  CHECK(seqs(store->list_events(query)) == std::vector<std::int64_t>{5, 6});
  auto events = store->list_events(EventQuery{});
  CHECK(events.back().job_id.empty());
  CHECK(events.back().data == nlohmann::json{{"n", 6}});
}

TEST_CASE("store::commit refuses an event seq that is already used", "[store]") {
  auto store = store_with_events();
  WriteBatch batch = testing::jobs_batch({testing::make_job(1)});
  batch.events = {make_event(3, "job_0001", 1)};
  auto status = store->commit(std::move(batch));
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().code == "STORE_WRITE_FAILED");
  CHECK(store->count_jobs() == 0);
  CHECK(store->list_events(EventQuery{})[2].job_id == "job_a");
}

TEST_CASE("store::list_logs filters by stream; all includes platform lines", "[store]") {
  auto store = store_with_logs();
  LogQuery query;
  query.job_id = "job_a";
  CHECK(sequences(store->list_logs(query)) == std::vector<std::int64_t>{1, 2, 3, 4, 5, 6});
  query.stream = "stdout";
  CHECK(sequences(store->list_logs(query)) == std::vector<std::int64_t>{1, 2, 5});
  query.stream = "stderr";
  auto errors = store->list_logs(query);
  CHECK(sequences(errors) == std::vector<std::int64_t>{3, 6});
  CHECK(errors[0].truncated);
  CHECK(errors[0].category == "workload_stderr");
  CHECK(errors[0].message == "stderr line 3");
}

TEST_CASE("store::list_logs continues after a sequence, up to a limit", "[store]") {
  auto store = store_with_logs();
  LogQuery query;
  query.job_id = "job_a";
  query.after_sequence = 2;
  query.limit = 3;
  CHECK(sequences(store->list_logs(query)) == std::vector<std::int64_t>{3, 4, 5});
  CHECK(store->max_log_sequence("job_a") == 6);
  CHECK(store->max_log_sequence("job_c") == 0);
}

TEST_CASE("store::list_logs tail returns the last lines in order", "[store]") {
  auto store = store_with_logs();
  LogQuery query;
  query.job_id = "job_a";
  query.after_sequence = 5;  // ignored by tail
  query.tail = 3;
  CHECK(sequences(store->list_logs(query)) == std::vector<std::int64_t>{4, 5, 6});
  query.stream = "stdout";
  query.tail = 2;
  CHECK(sequences(store->list_logs(query)) == std::vector<std::int64_t>{2, 5});
}
