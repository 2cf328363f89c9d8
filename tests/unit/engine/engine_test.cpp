#include "jgrid/engine/engine.hpp"

#include "engine_fixture.hpp"

using namespace jgrid;
using jgrid::model::JobStatus;
using jgrid::test::EngineFixture;
using jgrid::test::make_node;
using jgrid::test::make_spec;

TEST_CASE("engine runs a job from submit to completed with its events in order", "[engine]") {
  EngineFixture f({make_node("mi300x-1", "amd", 8), make_node("h100-1", "nvidia", 8)});
  model::Job job = f.submit(make_spec("amd"));
  CHECK(job.status == JobStatus::queued);

  REQUIRE(f.reaches(job.id, JobStatus::assigned));
  REQUIRE(f.executor->wait_started(1));
  exec::RunRequest request = f.executor->request_of(job.id);
  CHECK(request.node.id == "node_mi300x-1");
  CHECK(request.job.placement->gpu_indices == std::vector<int>{0});
  CHECK(request.job.attempts == 1);
  CHECK(std::filesystem::is_directory(request.workspace_dir / "artifacts"));

  f.executor->step(job.id, model::Phase::provisioning, "job.provisioning");
  REQUIRE(f.reaches(job.id, JobStatus::starting));
  f.executor->step(job.id, model::Phase::workload_execution, "job.running");
  REQUIRE(f.reaches(job.id, JobStatus::running));
  f.executor->output(job.id, "stdout", "hello");
  f.clock->advance(60 * 60 * 1000);  // one hour on one GPU at $2
  f.executor->finish(job.id, 0);
  REQUIRE(f.reaches(job.id, JobStatus::completed));

  CHECK(f.event_types(job.id) ==
        std::vector<std::string>{"job.submitted", "job.screened", "job.queued", "job.route_selected", "job.assigned",
                                 "job.provisioning", "job.running", "job.artifacts_collected", "job.completed"});
  auto done = *f.stored(job.id);
  CHECK(done.exit_code == 0);
  CHECK(done.phase == model::Phase::done);
  CHECK(done.started_ms);
  CHECK(done.completed_ms);
  CHECK(done.command_spawned);
  CHECK(done.stdout_tail == "hello\n");
  CHECK(done.actual_cost_usd == Approx(2.0));
  CHECK(done.artifacts_ready);
}

TEST_CASE("engine events carry ids, titles, phases and increasing sequences", "[engine]") {
  EngineFixture f({make_node("mi300x-1", "amd", 8)});
  model::Job job = f.submit_running(make_spec("amd"));
  auto events = f.events(job.id);
  REQUIRE(events.size() >= 7);
  for (std::size_t i = 0; i < events.size(); ++i) {
    CHECK(events[i].sequence == static_cast<std::int64_t>(i + 1));
    CHECK(events[i].id.rfind("evt_", 0) == 0);
    CHECK_FALSE(events[i].title.empty());
    if (i > 0) CHECK(events[i].seq > events[i - 1].seq);
  }
  CHECK(events[0].source == "api");
  CHECK(events[1].source == "screener");
  CHECK(events[2].source == "scheduler");
  CHECK(events[3].source == "router");
  CHECK(events[3].data["node_id"] == "node_mi300x-1");
  CHECK(events[3].data.contains("score"));
  CHECK(events[3].data["candidates"] == 1);
  CHECK(events[3].data["runner_up_count"] == 0);
  CHECK(events[4].phase == "scheduling");
  CHECK(events[6].phase == "workload_execution");
}

TEST_CASE("engine::nodes shows GPUs in use and a full node as busy", "[engine]") {
  EngineFixture f({make_node("small", "amd", 2)});
  CHECK(f.engine->nodes().at(0).gpus_free == 2);
  model::Job job = f.submit_running(make_spec("amd", 2));
  auto node = f.engine->node("node_small");
  REQUIRE(node);
  CHECK(node->gpus_free == 0);
  CHECK(node->running_jobs == 1);
  CHECK(node->status == model::NodeStatus::busy);
  f.executor->finish(job.id, 0);
  REQUIRE(f.reaches(job.id, JobStatus::completed));
  CHECK(f.engine->node("node_small")->gpus_free == 2);
  CHECK_FALSE(f.engine->node("node_missing"));
}

TEST_CASE("engine::estimate routes over the live fleet and stores nothing", "[engine]") {
  EngineFixture f({make_node("mi300x-1", "amd", 8)});
  auto body = f.engine->estimate(make_spec("amd"), model::Framing::plain);
  CHECK(body["routing"]["route_status"] == "available");
  CHECK(body["routing"]["selected_node_id"] == "node_mi300x-1");
  CHECK(f.store->count_jobs() == 0);
  auto nvidia = f.engine->estimate(make_spec("nvidia"), model::Framing::plain);
  CHECK(nvidia["routing"]["route_status"] == "unavailable");
  CHECK(nvidia["unavailable_code"] == "CAPACITY_UNAVAILABLE");
}

TEST_CASE("engine::stop shuts executors down and is idempotent", "[engine]") {
  EngineFixture f({make_node("mi300x-1", "amd", 8)});
  CHECK(f.engine->ready());
  f.engine->stop();
  f.engine->stop();
  CHECK_FALSE(f.engine->ready());
  CHECK(f.executor->shutdowns() == 1);
}
