#include "store/wipe.hpp"

#include "jgrid/store/store.hpp"
#include "store_fixtures.hpp"

using namespace jgrid;
using namespace jgrid::store;
using testing::make_event;
using testing::make_job;
using testing::make_log;
using testing::TempDir;

namespace {

// Two jobs (one keyed) with two events each, log lines, an artifact, an
// input, an outbox row and a setting.
WriteBatch two_jobs() {
  model::Job keyed = make_job(2, model::JobStatus::completed);
  keyed.idempotency_key = "key-1";
  WriteBatch batch = testing::jobs_batch({make_job(1), keyed});
  batch.events = {make_event(1, testing::job_id(1), 1), make_event(2, testing::job_id(2), 1),
                  make_event(3, testing::job_id(2), 2), make_event(4, testing::job_id(1), 2)};
  batch.logs = {make_log(testing::job_id(1), 1), make_log(testing::job_id(1), 2, "stderr")};
  batch.artifacts = {{"art_1", testing::job_id(2), "result.json", "application/json", 17, "abc", 5}};
  model::JobInput input;
  input.id = "inp_1";
  input.filename = "data.csv";
  batch.inputs = {input};
  model::Delivery delivery;
  delivery.id = "dlv_1";
  delivery.job_id = testing::job_id(2);
  delivery.event = "job.completed";
  delivery.body = "{}";
  batch.deliveries = {delivery};
  batch.settings = {{"maintenance", "on"}};
  return batch;
}

}  // namespace

TEST_CASE("store::delete_all_jobs takes what the workspaces spent back to 0", "[store]") {
  auto store = testing::open_store(":memory:");
  auto done = make_job(1, model::JobStatus::completed);
  done.actual_cost_usd = 0.1 + 0.2;
  REQUIRE(store->commit(testing::jobs_batch({done})).ok());
  REQUIRE(store->spent_usd("local") > 0);
  REQUIRE(store->delete_all_jobs().ok());
  CHECK(store->spent_usd("local") == 0);
  done.id = testing::job_id(2);
  done.actual_cost_usd = 1.5;
  REQUIRE(store->commit(testing::jobs_batch({done})).ok());
  CHECK(store->spent_usd("local") == 1.5);
}

TEST_CASE("store::delete_all_jobs deletes every job and what hangs off it, counting the rows", "[store]") {
  TempDir dir;
  const std::string path = dir.file("jgrid.db").string();
  {
    auto store = testing::open_store(path);
    REQUIRE(store->commit(two_jobs()).ok());
    REQUIRE(store->get_job(testing::job_id(1)));  // in the cache of recent jobs
    auto deleted = store->delete_all_jobs();
    REQUIRE(deleted.ok());
    CHECK(deleted->jobs == 2);
    CHECK(deleted->events == 4);
    CHECK(deleted->log_lines == 2);
    CHECK(deleted->artifacts == 1);
    CHECK(deleted->inputs == 1);
    CHECK(deleted->deliveries == 1);
    CHECK_FALSE(store->get_job(testing::job_id(1)));
    CHECK(store->count_jobs() == 0);
    CHECK(store->count_jobs_by_status().empty());
    CHECK(store->list_jobs(JobQuery{}).jobs.empty());
    CHECK_FALSE(store->find_by_idempotency_key("local", "key-1"));
    CHECK(store->list_events(EventQuery{}).empty());
    CHECK(store->list_deliveries(testing::job_id(2)).empty());
    CHECK(store->counters().max_event_seq == 4);  // seqs are not given out again
    CHECK(store->get_setting("maintenance") == "on");
  }
  auto reopened = testing::open_store(path);
  CHECK_FALSE(reopened->get_job(testing::job_id(2)));
  CHECK(reopened->count_jobs() == 0);
  CHECK(reopened->counters().max_event_seq == 4);
  model::Job again = make_job(2);
  again.idempotency_key = "key-1";
  WriteBatch batch = testing::jobs_batch({again});
  batch.events = {make_event(5, testing::job_id(2), 1)};
  REQUIRE(reopened->commit(batch).ok());  // the key and the id are free again
  CHECK(reopened->count_jobs_by_status() == std::map<std::string, std::int64_t>{{"queued", 1}});
  CHECK(reopened->counters().max_event_seq == 5);
}

TEST_CASE("store::delete_all_jobs also deletes the jobs queued before it, not those after", "[store]") {
  auto store = testing::open_store(":memory:");
  store->commit_async(testing::jobs_batch({make_job(1)}));
  REQUIRE(store->delete_all_jobs().ok());
  REQUIRE(store->commit(testing::jobs_batch({make_job(3)})).ok());
  CHECK(store->count_jobs() == 1);
  CHECK(store->get_job(testing::job_id(3)));
  CHECK_FALSE(store->get_job(testing::job_id(1)));
}

TEST_CASE("store::delete_all_jobs keeps the highest event seq across two deletions", "[store]") {
  auto store = testing::open_store(":memory:");
  REQUIRE(store->commit(two_jobs()).ok());
  REQUIRE(store->delete_all_jobs().ok());
  REQUIRE(store->delete_all_jobs().ok());  // nothing left: the floor stays
  CHECK(store->counters().max_event_seq == 4);
}
