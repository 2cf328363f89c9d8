#include <thread>

#include "engine_fixture.hpp"

using namespace jgrid;
using jgrid::model::JobStatus;
using jgrid::test::EngineFixture;
using jgrid::test::make_node;
using jgrid::test::make_spec;

namespace {

engine::SubmitRequest keyed(model::JobSpec spec, const std::string& key, const std::string& hash) {
  engine::SubmitRequest request{std::move(spec)};
  request.idempotency_key = key;
  request.request_hash = hash;
  return request;
}

}  // namespace

TEST_CASE("engine::submit makes the job durable with job.submitted and job.queued", "[engine]") {
  EngineFixture f({make_node("mi300x-1", "amd", 8)});
  f.clock->advance(0);
  auto result = f.engine->submit(engine::SubmitRequest{make_spec("amd")});
  REQUIRE(result);
  CHECK_FALSE(result->replayed);
  const model::Job& job = result->job;
  CHECK(job.id.rfind("job_", 0) == 0);
  CHECK(job.status == JobStatus::queued);
  CHECK(job.phase == model::Phase::queued);
  CHECK(job.spec.name.rfind("inference-", 0) == 0);
  CHECK(job.spec.name.size() == std::string("inference-").size() + 14);
  CHECK(job.created_ms == f.clock->now_ms());
  CHECK(job.queued_ms == job.created_ms);
  CHECK(job.estimated_cost_usd > 0);
  REQUIRE(f.store->get_job(job.id));  // no flush: committed before submit returned
  auto events = f.store->list_events(store::EventQuery{job.id, 0, "", 0, 2});
  REQUIRE(events.size() == 2);
  CHECK(events[0].type == "job.submitted");
  CHECK(events[0].source == "api");
  CHECK(events[1].type == "job.queued");
  CHECK(events[1].source == "scheduler");
}

TEST_CASE("engine::submit keeps a given name", "[engine]") {
  EngineFixture f({make_node("mi300x-1", "amd", 8)});
  model::JobSpec spec = make_spec("amd");
  spec.name = "my-run";
  CHECK(f.submit(spec).spec.name == "my-run");
}

TEST_CASE("engine::submit replays a retried idempotency key and refuses another body", "[engine]") {
  EngineFixture f({make_node("mi300x-1", "amd", 8)});
  auto first = f.engine->submit(keyed(make_spec("amd"), "k1", "hash-a"));
  REQUIRE(first);
  auto again = f.engine->submit(keyed(make_spec("amd"), "k1", "hash-a"));
  REQUIRE(again);
  CHECK(again->replayed);
  CHECK(again->job.id == first->job.id);
  auto other = f.engine->submit(keyed(make_spec("amd"), "k1", "hash-b"));
  REQUIRE_FALSE(other);
  CHECK(other.error().code == "CONFLICT");
  CHECK(other.error().message == "idempotency key reused with a different request");
  CHECK(f.store->count_jobs() == 1);
}

TEST_CASE("engine::submit makes one job for concurrent submits with the same key", "[engine]") {
  EngineFixture f({make_node("mi300x-1", "amd", 8)});
  constexpr int k_threads = 8;
  std::vector<std::optional<engine::SubmitResult>> results(k_threads);
  std::vector<std::thread> threads;
  for (int i = 0; i < k_threads; ++i) {
    threads.emplace_back([&, i] {
      auto result = f.engine->submit(keyed(make_spec("amd"), "same-key", "hash"));
      if (result) results[i] = *result;
    });
  }
  for (auto& thread : threads) thread.join();
  int created = 0;
  for (const auto& result : results) {
    REQUIRE(result);
    CHECK(result->job.id == results[0]->job.id);
    if (!result->replayed) ++created;
  }
  CHECK(created == 1);
  CHECK(f.store->count_jobs() == 1);
}

TEST_CASE("engine::submit gives CAPACITY_UNAVAILABLE when no node of the fleet could run the job", "[engine]") {
  EngineFixture f({make_node("mi300x-1", "amd", 8), make_node("mi300x-2", "amd", 8)});
  auto result = f.engine->submit(engine::SubmitRequest{make_spec("nvidia")});
  REQUIRE_FALSE(result);
  CHECK(result.error().code == "CAPACITY_UNAVAILABLE");
  CHECK(result.error().message == "no NVIDIA/CUDA node in the fleet: declare a different route or add capacity");
  CHECK(result.error().details["retry_after_seconds"] == 30);
  CHECK(f.store->count_jobs() == 0);
}

TEST_CASE("engine::submit accepts a job that fits the fleet but not its free GPUs", "[engine]") {
  EngineFixture f({make_node("mi300x-1", "amd", 2)});
  f.submit_running(make_spec("amd", 2));
  auto result = f.engine->submit(engine::SubmitRequest{make_spec("amd", 2)});
  REQUIRE(result);
  CHECK(result->job.status == JobStatus::queued);
}

TEST_CASE("engine::submit checks the job's inputs", "[engine]") {
  EngineFixture f({make_node("mi300x-1", "amd", 8)});
  model::JobSpec spec = make_spec("amd");
  SECTION("unknown input") {
    spec.input_files = {"inp_missing"};
    auto result = f.engine->submit(engine::SubmitRequest{spec});
    REQUIRE_FALSE(result);
    CHECK(result.error().code == "JOB_INPUT_NOT_FOUND");
    CHECK(result.error().message.find("inp_missing") != std::string::npos);
  }
  SECTION("input of another workspace") {
    auto input = f.engine->create_input("other", "data.csv", "text/csv", "input");
    REQUIRE(input);
    spec.input_files = {input->id};
    auto result = f.engine->submit(engine::SubmitRequest{spec});
    REQUIRE_FALSE(result);
    CHECK(result.error().code == "JOB_INPUT_NOT_FOUND");
  }
  SECTION("script not uploaded yet") {
    auto input = f.engine->create_input("local", "run.sh", "text/x-shellscript", "script");
    REQUIRE(input);
    spec.script_files = {input->id};
    auto result = f.engine->submit(engine::SubmitRequest{spec});
    REQUIRE_FALSE(result);
    CHECK(result.error().code == "JOB_INPUT_NOT_READY");
    CHECK(result.error().message.find(input->id) != std::string::npos);
  }
  CHECK(f.store->count_jobs() == 0);
}
