#include "engine_fixture.hpp"

using namespace jgrid;
using jgrid::model::JobStatus;
using jgrid::test::EngineFixture;
using jgrid::test::make_node;
using jgrid::test::make_spec;

namespace {

std::shared_ptr<store::Store> memory_store() {
  auto opened = store::Store::open(store::StoreOptions{});
  REQUIRE(opened);
  return std::shared_ptr<store::Store>(std::move(*opened));
}

void check_sequences(const std::vector<model::Event>& events) {
  for (std::size_t i = 0; i < events.size(); ++i) {
    CHECK(events[i].sequence == static_cast<std::int64_t>(i + 1));
    if (i > 0) CHECK(events[i].seq > events[i - 1].seq);
  }
}

}  // namespace

TEST_CASE("engine::start requeues a job lost by a restart, then fails it past max_attempts", "[engine]") {
  auto store = memory_store();
  std::string id;
  {
    EngineFixture first({make_node("mi300x-1", "amd", 8)}, {}, store);
    id = first.submit_running(make_spec("amd")).id;
    first.executor->output(id, "stdout", "before restart");
  }
  {
    EngineFixture second({make_node("mi300x-1", "amd", 8)}, {}, store);
    auto retrying = second.events(id, "job.retrying");
    REQUIRE(retrying.size() == 1);
    CHECK(retrying[0].data["attempt"] == 2);
    CHECK(retrying[0].data["reason"] == "node lost: server restarted");
    REQUIRE(second.executor->wait_started(1));  // placed again: attempt 2
    CHECK(second.executor->request_of(id).job.attempts == 2);
    CHECK(second.executor->request_of(id).job.placement->gpu_indices == std::vector<int>{0});
    second.executor->run(id);
    second.executor->output(id, "stdout", "after restart");
    REQUIRE(second.reaches(id, JobStatus::running));
  }
  EngineFixture third({make_node("mi300x-1", "amd", 8)}, {}, store);
  auto failed = *third.stored(id);
  CHECK(failed.status == JobStatus::failed);
  REQUIRE(failed.failure);
  CHECK(failed.failure->code == "NODE_LOST");
  CHECK(third.event_types(id).back() == "job.failed");
  check_sequences(third.events(id));
  auto logs = store->list_logs(store::LogQuery{id, 0, "all", 100});
  REQUIRE(logs.size() == 2);
  CHECK(logs[1].sequence == 2);
  CHECK(third.engine->nodes().at(0).gpus_free == 8);
}

TEST_CASE("engine::start puts queued jobs back in the queue in their order", "[engine]") {
  auto store = memory_store();
  std::string first_id, second_id;
  {
    EngineFixture before({make_node("one", "amd", 1)}, {}, store);
    before.submit_running(make_spec("amd"));
    first_id = before.submit(make_spec("amd")).id;
    second_id = before.submit(make_spec("amd")).id;
  }
  EngineFixture after({make_node("one", "amd", 1)}, {}, store);
  // The running job was requeued too (created first), so it runs first.
  REQUIRE(after.executor->wait_started(1));
  std::string running = after.executor->started().back().job.id;
  after.executor->run(running);
  after.executor->finish(running, 0);
  REQUIRE(after.executor->wait_started(2));
  CHECK(after.executor->started().back().job.id == first_id);
  CHECK(after.stored(second_id)->status == JobStatus::queued);
  CHECK(after.events(first_id, "job.retrying").empty());
}

TEST_CASE("engine diagnoses a failure from output stored before a restart", "[engine]") {
  auto store = memory_store();
  std::string id;
  {
    EngineFixture first({make_node("mi300x-1", "amd", 8)}, {}, store);
    id = first.submit_running(make_spec("amd")).id;
    first.executor->output(id, "stderr", "RuntimeError: No HIP GPUs are available");
  }
  EngineFixture second({make_node("mi300x-1", "amd", 8)}, {}, store);
  REQUIRE(second.executor->wait_started(1));
  second.executor->run(id);
  REQUIRE(second.reaches(id, JobStatus::running));
  second.executor->finish(id, 1);
  REQUIRE(second.reaches(id, JobStatus::failed));
  auto failed = *second.stored(id);
  REQUIRE(failed.diagnosis);
  CHECK(failed.diagnosis->code == "NO_GPU_VISIBLE");
  REQUIRE(failed.diagnosis->evidence);
  CHECK(failed.diagnosis->evidence->line == 1);
}
