#include <algorithm>
#include <chrono>
#include <thread>

#include "engine_fixture.hpp"

using namespace jgrid;
using jgrid::model::JobStatus;
using jgrid::test::EngineFixture;
using jgrid::test::eventually;
using jgrid::test::make_node;
using jgrid::test::make_spec;

TEST_CASE("engine flags a job stuck in a start phase past the delay threshold", "[engine]") {
  engine::EngineOptions options;
  options.delay_threshold_ms = 60'000;
  EngineFixture f({make_node("mi300x-1", "amd", 8)}, options);
  model::Job job = f.submit(make_spec("amd"));
  REQUIRE(f.executor->wait_started(1));
  f.executor->step(job.id, model::Phase::runtime_preparation, "job.inputs_prepared");
  REQUIRE(f.reaches(job.id, JobStatus::starting));
  CHECK_FALSE(f.stored(job.id)->delayed_start);

  f.clock->advance(90'000);
  REQUIRE(eventually([&] { return f.stored(job.id)->delayed_start; }));
  auto delayed = *f.stored(job.id);
  REQUIRE(delayed.delay);
  CHECK(delayed.delay->code == "RUNTIME_PREPARATION_DELAYED");
  CHECK(delayed.delay->message == "job has been in runtime_preparation for 90s (threshold 60s)");
  auto types = f.event_types(job.id);
  CHECK(std::count(types.begin(), types.end(), "job.delayed") == 1);

  f.executor->step(job.id, model::Phase::workload_execution, "job.running");
  REQUIRE(f.reaches(job.id, JobStatus::running));
  auto running = *f.stored(job.id);
  CHECK_FALSE(running.delay);
  CHECK(running.delayed_start);  // the start was late; that stays known
}

TEST_CASE("engine does not flag a running workload however long it runs", "[engine]") {
  engine::EngineOptions options;
  options.delay_threshold_ms = 1000;
  EngineFixture f({make_node("mi300x-1", "amd", 8)}, options);
  model::Job job = f.submit_running(make_spec("amd"));
  f.clock->advance(10'000);
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  CHECK_FALSE(f.stored(job.id)->delayed_start);
  CHECK_FALSE(f.stored(job.id)->delay);
}

TEST_CASE("engine keeps the capacity reason when a waiting job passes the threshold", "[engine]") {
  engine::EngineOptions options;
  options.delay_threshold_ms = 1000;
  EngineFixture f({make_node("one", "amd", 1)}, options);
  f.submit_running(make_spec("amd"));
  model::Job waiting = f.submit(make_spec("amd"));
  REQUIRE(eventually([&] { return f.stored(waiting.id)->delay.has_value(); }));
  f.clock->advance(5000);
  REQUIRE(eventually([&] { return f.stored(waiting.id)->delayed_start; }));
  CHECK(f.stored(waiting.id)->delay->code == "CAPACITY_UNAVAILABLE");
}

TEST_CASE("engine keeps one clock timer through the start phases and drops it when the workload starts or the job ends", "[engine]") {
  engine::EngineOptions options;
  options.delay_threshold_ms = 60'000;
  EngineFixture f({make_node("mi300x-1", "amd", 8)}, options);
  model::Job job = f.submit(make_spec("amd"));
  REQUIRE(f.executor->wait_started(1));
  CHECK(f.clock->pending_timers() == 1);  // queued's, kept: due no later than scheduling's would be
  f.executor->step(job.id, model::Phase::runtime_preparation, "job.inputs_prepared");
  CHECK(f.clock->pending_timers() == 1);
  f.executor->step(job.id, model::Phase::workload_execution, "job.running");
  CHECK(f.clock->pending_timers() == 0);  // a running workload is never delayed

  model::Job waiting = f.submit(make_spec("amd", 8));  // more GPUs than are free: waits
  REQUIRE(eventually([&] { return f.stored(waiting.id)->delay.has_value(); }));
  CHECK(f.clock->pending_timers() == 1);
  REQUIRE(f.engine->cancel(waiting.id, "local", "").ok());
  CHECK(f.clock->pending_timers() == 0);
}

TEST_CASE("engine's delay timer from an earlier phase waits for the current phase's threshold", "[engine]") {
  engine::EngineOptions options;
  options.delay_threshold_ms = 60'000;
  EngineFixture f({make_node("mi300x-1", "amd", 8)}, options);
  model::Job job = f.submit(make_spec("amd"));
  REQUIRE(f.executor->wait_started(1));
  f.clock->advance(30'000);
  f.executor->step(job.id, model::Phase::runtime_preparation, "job.inputs_prepared");  // this phase's threshold: +90 s
  REQUIRE(f.reaches(job.id, JobStatus::starting));
  f.clock->advance(40'000);  // +70 s: the timer armed in the queue (+60 s) fires and waits on
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  CHECK_FALSE(f.stored(job.id)->delayed_start);
  CHECK(f.clock->pending_timers() == 1);
  f.clock->advance(25'000);  // +95 s
  REQUIRE(eventually([&] { return f.stored(job.id)->delayed_start; }));
  CHECK(f.stored(job.id)->delay->message == "job has been in runtime_preparation for 65s (threshold 60s)");
  auto types = f.event_types(job.id);
  CHECK(std::count(types.begin(), types.end(), "job.delayed") == 1);
}
