#include "store/job_cache.hpp"

#include "store_fixtures.hpp"

using namespace jgrid;
using namespace jgrid::store;
using testing::make_job;

TEST_CASE("store::JobCache returns the last job put", "[store]") {
  JobCache cache(4);
  CHECK_FALSE(cache.find("job_0001"));
  auto job = make_job(1);
  cache.put(job);
  job.status = model::JobStatus::running;
  cache.put(job);
  auto hit = cache.find("job_0001");
  REQUIRE(hit);
  CHECK(hit->status == model::JobStatus::running);
  CHECK(cache.size() == 1);
}

TEST_CASE("store::JobCache evicts the least recently used job", "[store]") {
  JobCache cache(2);
  cache.put(make_job(1));
  cache.put(make_job(2));
  CHECK(cache.find("job_0001"));  // 1 is now more recent than 2
  cache.put(make_job(3));
  CHECK(cache.find("job_0001"));
  CHECK_FALSE(cache.find("job_0002"));
  CHECK(cache.find("job_0003"));
  CHECK(cache.size() == 2);
}

TEST_CASE("store::JobCache drops a read that raced with a put", "[store]") {
  JobCache cache(4);
  const auto seen = cache.generation();
  auto fresh = make_job(1, model::JobStatus::running);
  cache.put(fresh);  // committed while the reader was reading
  cache.put_if_unchanged(make_job(1, model::JobStatus::queued), seen);
  CHECK(cache.find("job_0001")->status == model::JobStatus::running);

  cache.put_if_unchanged(make_job(2), seen);
  cache.put_if_unchanged(make_job(2), seen);
  CHECK_FALSE(cache.find("job_0002"));
  cache.put_if_unchanged(make_job(2), cache.generation());
  cache.put_if_unchanged(make_job(2), cache.generation());
  CHECK(cache.find("job_0002"));
}

TEST_CASE("store::JobCache admits a read job on its second offer", "[store]") {
  JobCache cache(2);
  cache.put_if_unchanged(make_job(1), cache.generation());
  CHECK_FALSE(cache.find("job_0001"));
  cache.put_if_unchanged(make_job(1), cache.generation());
  CHECK(cache.find("job_0001"));
}

TEST_CASE("store::JobCache keeps a job read again while others are read once", "[store]") {
  JobCache cache(2);
  cache.put(make_job(1));
  cache.put(make_job(2));
  for (int i = 3; i < 100; ++i) cache.put_if_unchanged(make_job(i), cache.generation());
  CHECK(cache.find("job_0001"));
  CHECK(cache.find("job_0002"));
  CHECK(cache.size() == 2);
}

TEST_CASE("store::JobCache with no capacity holds nothing", "[store]") {
  JobCache cache(0);
  cache.put(make_job(1));
  cache.put_if_unchanged(make_job(2), cache.generation());
  CHECK(cache.size() == 0);
  CHECK_FALSE(cache.find("job_0001"));
}

TEST_CASE("store::JobCache::clear forgets every job and drops reads that began before it", "[store]") {
  JobCache cache(4);
  cache.put(make_job(1));
  cache.put(make_job(2));
  std::uint64_t seen = cache.generation();
  cache.clear();
  CHECK(cache.size() == 0);
  CHECK_FALSE(cache.find("job_0001"));
  cache.put_if_unchanged(make_job(1), seen);  // read before the clear: stale
  cache.put_if_unchanged(make_job(1), seen);
  CHECK_FALSE(cache.find("job_0001"));
}
