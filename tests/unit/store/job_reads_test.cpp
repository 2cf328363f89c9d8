#include <set>

#include "store_fixtures.hpp"

using namespace jgrid;
using namespace jgrid::store;
using model::JobStatus;
using testing::job_id;
using testing::make_job;
using testing::TempDir;

namespace {

std::vector<std::string> ids_of(const std::vector<model::Job>& jobs) {
  std::vector<std::string> ids;
  for (const auto& job : jobs) ids.push_back(job.id);
  return ids;
}

void commit_jobs(Store& store, int from, int to) {
  WriteBatch batch;
  for (int n = from; n <= to; ++n) batch.jobs.push_back(make_job(n));
  REQUIRE(store.commit(std::move(batch)).ok());
}

}  // namespace

TEST_CASE("store::get_job returns the committed job, or nothing for an unknown id", "[store]") {
  auto store = testing::open_store(":memory:");
  auto job = make_job(1);
  job.spec.edit().environment = {{"TOKEN", "x"}};
  job.placement = model::Placement{};
  job.placement->node_name = "mi300x-east-1";
  REQUIRE(store->commit(testing::jobs_batch({job})).ok());
  auto back = store->get_job(job.id);
  REQUIRE(back);
  CHECK(back->spec->environment.at("TOKEN") == "x");
  REQUIRE(back->placement);
  CHECK(back->placement->node_name == "mi300x-east-1");
  CHECK_FALSE(store->get_job("job_9999"));
}

TEST_CASE("store::commit upserts a job by id", "[store]") {
  auto store = testing::open_store(":memory:");
  auto job = make_job(1);
  REQUIRE(store->commit(testing::jobs_batch({job})).ok());
  job.status = JobStatus::running;
  job.exit_code = 3;
  REQUIRE(store->commit(testing::jobs_batch({job})).ok());
  CHECK(store->count_jobs() == 1);
  CHECK(store->get_job(job.id)->status == JobStatus::running);
  CHECK(store->get_job(job.id)->exit_code == 3);
  JobQuery running;
  running.statuses = {JobStatus::running};
  CHECK(ids_of(store->list_jobs(running).jobs) == std::vector<std::string>{job.id});
}

TEST_CASE("store::list_jobs pages newest first with has_more", "[store]") {
  auto store = testing::open_store(":memory:");
  commit_jobs(*store, 1, 5);
  JobQuery query;
  query.limit = 2;
  auto first = store->list_jobs(query);
  CHECK(ids_of(first.jobs) == std::vector<std::string>{job_id(5), job_id(4)});
  CHECK(first.has_more);
  query.before_id = job_id(2);
  auto last = store->list_jobs(query);
  CHECK(ids_of(last.jobs) == std::vector<std::string>{job_id(1)});
  CHECK_FALSE(last.has_more);
  query.before_id = job_id(3);
  CHECK_FALSE(store->list_jobs(query).has_more);
}

TEST_CASE("store::list_jobs never repeats or skips a job while jobs are added", "[store]") {
  auto store = testing::open_store(":memory:");
  commit_jobs(*store, 1, 10);
  JobQuery query;
  query.limit = 3;
  std::vector<std::string> seen;
  int next = 11;
  for (;;) {
    auto page = store->list_jobs(query);
    for (const auto& job : page.jobs) seen.push_back(job.id);
    commit_jobs(*store, next, next + 1);  // newer jobs arrive between pages
    next += 2;
    if (!page.has_more) break;
    query.before_id = page.jobs.back().id;
  }
  std::vector<std::string> expected;
  for (int n = 10; n >= 1; --n) expected.push_back(job_id(n));
  CHECK(seen == expected);
}

TEST_CASE("store::list_jobs filters by status, workload type, vendor and workspace", "[store]") {
  auto store = testing::open_store(":memory:");
  auto a = make_job(1, JobStatus::queued);
  a.spec.edit().workload_type = model::WorkloadType::fine_tuning;
  a.spec.edit().gpu_vendor = "amd";
  auto b = make_job(2, JobStatus::running);
  b.spec.edit().gpu_vendor = "nvidia";
  auto c = make_job(3, JobStatus::failed);
  c.spec.edit().runtime = "rocm";  // implies amd
  auto d = make_job(4, JobStatus::queued);
  d.workspace = "other";
  REQUIRE(store->commit(testing::jobs_batch({a, b, c, d})).ok());

  JobQuery query;
  query.statuses = {JobStatus::queued, JobStatus::running};
  CHECK(ids_of(store->list_jobs(query).jobs) == std::vector<std::string>{b.id, a.id});
  query = JobQuery{};
  query.workload_type = "fine_tuning";
  CHECK(ids_of(store->list_jobs(query).jobs) == std::vector<std::string>{a.id});
  query = JobQuery{};
  query.gpu_vendor = "AMD";
  CHECK(ids_of(store->list_jobs(query).jobs) == std::vector<std::string>{c.id, a.id});
  query = JobQuery{};
  query.workspace = "other";
  CHECK(ids_of(store->list_jobs(query).jobs) == std::vector<std::string>{d.id});
}

TEST_CASE("store::list_jobs pages several statuses newest first across their index ranges", "[store]") {
  testing::TempDir dir;
  auto store = testing::open_store(dir.file("jgrid.db").string());
  WriteBatch batch;
  const JobStatus cycle[] = {JobStatus::completed, JobStatus::queued, JobStatus::completed, JobStatus::running,
                             JobStatus::failed};
  for (int n = 1; n <= 30; ++n) batch.jobs.push_back(make_job(n, cycle[n % 5]));
  REQUIRE(store->commit(std::move(batch)).ok());

  JobQuery query;
  query.statuses = {JobStatus::running, JobStatus::queued, JobStatus::running};
  query.limit = 5;
  auto first = store->list_jobs(query);
  CHECK(ids_of(first.jobs) == std::vector<std::string>{job_id(28), job_id(26), job_id(23), job_id(21), job_id(18)});
  CHECK(first.has_more);
  query.before_id = first.jobs.back().id;
  auto second = store->list_jobs(query);
  CHECK(ids_of(second.jobs) == std::vector<std::string>{job_id(16), job_id(13), job_id(11), job_id(8), job_id(6)});
  CHECK(second.has_more);
  query.before_id = second.jobs.back().id;
  auto last = store->list_jobs(query);
  CHECK(ids_of(last.jobs) == std::vector<std::string>{job_id(3), job_id(1)});
  CHECK_FALSE(last.has_more);
  for (const auto& job : last.jobs) CHECK(job.status == (job.id == job_id(3) ? JobStatus::running : JobStatus::queued));

  query = JobQuery{};
  query.statuses = {JobStatus::failed, JobStatus::cancelled};
  query.workspace = "other";
  CHECK(store->list_jobs(query).jobs.empty());
}

TEST_CASE("store::count_jobs_by_status follows every status change and failed batch", "[store]") {
  auto store = testing::open_store(":memory:");
  REQUIRE(store->commit(testing::jobs_batch({make_job(1), make_job(2), make_job(3, JobStatus::running)})).ok());
  CHECK(store->count_jobs_by_status() == std::map<std::string, std::int64_t>{{"queued", 2}, {"running", 1}});

  // Two versions of one job in one batch, a job rewritten with its status
  // unchanged, and a job moved on.
  auto done = make_job(1, JobStatus::running);
  REQUIRE(store->commit(testing::jobs_batch({done, make_job(2), make_job(3, JobStatus::completed)})).ok());
  done.status = JobStatus::completed;
  REQUIRE(store->commit(testing::jobs_batch({done})).ok());
  CHECK(store->count_jobs_by_status() == std::map<std::string, std::int64_t>{{"completed", 2}, {"queued", 1}});
  CHECK(store->count_jobs() == 3);

  auto clash = make_job(4, JobStatus::failed);  // its idempotency key is taken: the batch fails whole
  auto first = make_job(5);
  first.idempotency_key = clash.idempotency_key = "key";
  REQUIRE(store->commit(testing::jobs_batch({first})).ok());
  CHECK_FALSE(store->commit(testing::jobs_batch({make_job(6, JobStatus::running), clash})).ok());
  CHECK(store->count_jobs_by_status() == std::map<std::string, std::int64_t>{{"completed", 2}, {"queued", 2}});
  CHECK(store->count_jobs() == 4);
}

TEST_CASE("store::spent_usd sums each workspace's job costs through rewrites, failed batches and a reopen",
          "[store]") {
  TempDir dir;
  const std::string path = dir.file("jgrid.db").string();
  auto costing = [](int n, const std::string& workspace, std::optional<double> cost) {
    auto job = make_job(n, cost ? JobStatus::completed : JobStatus::running);
    job.workspace = workspace;
    job.actual_cost_usd = cost;
    return job;
  };
  {
    auto store = testing::open_store(path);
    CHECK(store->spent_usd("w1") == 0);
    REQUIRE(store->commit(testing::jobs_batch({costing(1, "w1", std::nullopt), costing(2, "w2", 0.5)})).ok());
    CHECK(store->spent_usd("w1") == 0);
    // Job 1 ends (written twice in one batch), job 3 arrives done; job 2 is rewritten unchanged.
    REQUIRE(store->commit(testing::jobs_batch({costing(1, "w1", 0.25), costing(1, "w1", 1.25),
                                               costing(3, "w1", 2.0), costing(2, "w2", 0.5)})).ok());
    CHECK(store->spent_usd("w1") == Approx(3.25));
    CHECK(store->spent_usd("w2") == Approx(0.5));
    auto clash = costing(4, "w1", 100.0);  // its idempotency key is taken: the batch fails whole
    auto first = costing(5, "w1", std::nullopt);
    first.idempotency_key = clash.idempotency_key = "key";
    REQUIRE(store->commit(testing::jobs_batch({first})).ok());
    CHECK_FALSE(store->commit(testing::jobs_batch({costing(6, "w1", 7.0), clash})).ok());
    CHECK(store->spent_usd("w1") == Approx(3.25));
  }
  auto reopened = testing::open_store(path);
  CHECK(reopened->spent_usd("w1") == Approx(3.25));
  CHECK(reopened->spent_usd("w2") == Approx(0.5));
  CHECK(reopened->spent_usd("w3") == 0);
}

TEST_CASE("store::live_jobs returns every job that is not terminal", "[store]") {
  auto store = testing::open_store(":memory:");
  WriteBatch batch;
  int n = 0;
  for (auto status : model::all_statuses()) batch.jobs.push_back(make_job(++n, status));
  REQUIRE(store->commit(std::move(batch)).ok());
  std::set<JobStatus> live;
  for (const auto& job : store->live_jobs()) live.insert(job.status);
  for (auto status : model::all_statuses()) CHECK(live.count(status) == (model::is_terminal(status) ? 0u : 1u));
}

TEST_CASE("store::find_by_idempotency_key finds the job of its workspace only", "[store]") {
  auto store = testing::open_store(":memory:");
  auto job = make_job(1);
  job.idempotency_key = "key-1";
  auto keyless = make_job(2);
  REQUIRE(store->commit(testing::jobs_batch({job, keyless})).ok());
  auto found = store->find_by_idempotency_key("local", "key-1");
  REQUIRE(found);
  CHECK(found->id == job.id);
  CHECK_FALSE(store->find_by_idempotency_key("other", "key-1"));
  CHECK_FALSE(store->find_by_idempotency_key("local", "key-2"));
  CHECK_FALSE(store->find_by_idempotency_key("local", ""));
}

TEST_CASE("store::commit refuses a second job with a used idempotency key", "[store]") {
  auto store = testing::open_store(":memory:");
  auto first = make_job(1);
  first.idempotency_key = "same";
  auto second = make_job(2);
  second.idempotency_key = "same";
  REQUIRE(store->commit(testing::jobs_batch({first})).ok());
  auto status = store->commit(testing::jobs_batch({second}));
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().code == "STORE_WRITE_FAILED");
  CHECK_FALSE(store->get_job(second.id));
  CHECK(store->find_by_idempotency_key("local", "same")->id == first.id);
}
