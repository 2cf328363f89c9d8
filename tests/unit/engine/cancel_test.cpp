#include "engine_fixture.hpp"

using namespace jgrid;
using jgrid::model::JobStatus;
using jgrid::test::EngineFixture;
using jgrid::test::make_node;
using jgrid::test::make_spec;

TEST_CASE("engine::cancel cancels a queued job, and a second cancel is a conflict", "[engine]") {
  EngineFixture f({make_node("one", "amd", 1)});
  f.submit_running(make_spec("amd"));
  model::Job waiting = f.submit(make_spec("amd"));
  auto cancelled = f.engine->cancel(waiting.id, "local", "");
  REQUIRE(cancelled);
  CHECK(cancelled->status == JobStatus::cancelled);
  CHECK(cancelled->status_reason == "cancelled by user");
  CHECK(cancelled->phase == model::Phase::done);
  auto stored = f.store->get_job(waiting.id);  // durable when cancel returns
  REQUIRE(stored);
  CHECK(stored->status == JobStatus::cancelled);
  auto types = f.event_types(waiting.id);
  CHECK(std::vector<std::string>(types.end() - 2, types.end()) ==
        std::vector<std::string>{"job.cancel_requested", "job.cancelled"});

  auto again = f.engine->cancel(waiting.id, "local", "");
  REQUIRE_FALSE(again);
  CHECK(again.error().code == "CONFLICT");
  CHECK(again.error().message == "job " + waiting.id + " is already cancelled");
  CHECK(f.executor->cancelled().empty());
}

TEST_CASE("engine::cancel stops a running job quickly and frees its GPUs", "[engine]") {
  EngineFixture f({make_node("one", "amd", 1)});
  model::Job running = f.submit_running(make_spec("amd"));
  model::Job next = f.submit(make_spec("amd"));
  auto begin = std::chrono::steady_clock::now();
  auto cancelled = f.engine->cancel(running.id, "local", "no longer needed");
  CHECK(std::chrono::steady_clock::now() - begin < std::chrono::seconds(2));
  REQUIRE(cancelled);
  CHECK(cancelled->status_reason == "no longer needed");
  CHECK(f.executor->cancelled() == std::vector<std::string>{running.id});
  // Its GPU goes to the next job; late executor calls change nothing.
  REQUIRE(f.reaches(next.id, JobStatus::assigned));
  f.executor->finish(running.id, 0);
  CHECK(f.stored(running.id)->status == JobStatus::cancelled);
}

TEST_CASE("engine::cancel does not see jobs of other workspaces or unknown ids", "[engine]") {
  EngineFixture f({make_node("one", "amd", 1)});
  model::Job job = f.submit(make_spec("amd"));
  auto other = f.engine->cancel(job.id, "elsewhere", "");
  REQUIRE_FALSE(other);
  CHECK(other.error().code == "NOT_FOUND");
  auto unknown = f.engine->cancel("job_unknown", "local", "");
  REQUIRE_FALSE(unknown);
  CHECK(unknown.error().code == "NOT_FOUND");
}

TEST_CASE("engine::cancel of a completed job is a conflict", "[engine]") {
  EngineFixture f({make_node("one", "amd", 1)});
  model::Job job = f.submit_running(make_spec("amd"));
  f.executor->finish(job.id, 0);
  REQUIRE(f.reaches(job.id, JobStatus::completed));
  auto result = f.engine->cancel(job.id, "local", "");
  REQUIRE_FALSE(result);
  CHECK(result.error().code == "CONFLICT");
  CHECK(result.error().message == "job " + job.id + " is already completed");
}
