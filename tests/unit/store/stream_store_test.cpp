#include "jgrid/store/stream_store.hpp"

#include <catch2/catch.hpp>
#include <mutex>
#include <vector>

namespace {

jgrid::model::Event event_of(std::int64_t seq) {
  jgrid::model::Event event;
  event.seq = seq;
  event.job_id = "job_" + std::to_string(seq);
  event.type = "job.submitted";
  return event;
}

}  // namespace

TEST_CASE("store::make_stream_store hands every batch over in commit order and keeps nothing", "[store]") {
  std::mutex mutex;
  std::vector<std::int64_t> seen;
  auto store = jgrid::store::make_stream_store([&](const jgrid::store::WriteBatch& batch) {
    std::lock_guard lock(mutex);
    for (const auto& event : batch.events) seen.push_back(event.seq);
  });
  for (std::int64_t seq = 1; seq <= 3000; ++seq) {
    jgrid::store::WriteBatch batch;
    batch.events.push_back(event_of(seq));
    store->commit_async(std::move(batch));
  }
  store->flush();
  {
    std::lock_guard lock(mutex);
    REQUIRE(seen.size() == 3000);
    for (std::size_t i = 0; i < seen.size(); ++i) REQUIRE(seen[i] == static_cast<std::int64_t>(i + 1));
  }
  CHECK(store->counters().max_event_seq == 3000);
  CHECK(store->list_events(jgrid::store::EventQuery{}).empty());
  CHECK_FALSE(store->get_job("job_1"));
  CHECK(store->count_jobs() == 0);
}

TEST_CASE("store::make_stream_store sums the cost of ended jobs per workspace", "[store]") {
  auto store = jgrid::store::make_stream_store([](const jgrid::store::WriteBatch&) {});
  jgrid::store::WriteBatch batch;
  jgrid::model::Job running, done, elsewhere;
  running.id = "job_a";
  running.status = jgrid::model::JobStatus::running;
  running.actual_cost_usd = 5.0;
  done.id = "job_b";
  done.status = jgrid::model::JobStatus::completed;
  done.actual_cost_usd = 1.25;
  elsewhere = done;
  elsewhere.id = "job_c";
  elsewhere.workspace = "other";
  batch.jobs = {running, done, elsewhere};
  REQUIRE(store->commit(std::move(batch)).ok());
  CHECK(store->spent_usd(done.workspace) == Approx(1.25));
  CHECK(store->spent_usd("other") == Approx(1.25));
  CHECK(store->spent_usd("nobody") == 0);
}
