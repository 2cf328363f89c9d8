#include "jgrid/exec/sim_executor.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <thread>

#include "recording_sink.hpp"

using namespace jgrid;
using namespace jgrid::exec;
using namespace jgrid::exec::testing;
using Json = nlohmann::json;

namespace {

// 1000 clock ms per real ms: a 10 s simulated run takes about 10 ms.
constexpr double k_fast = 1000.0;

struct Harness {
  std::shared_ptr<util::Clock> clock = util::make_real_clock(k_fast);
  RecordingSink sink{clock};
  TempWorkspace workspace;
  Fleet fleet;
  std::shared_ptr<Executor> executor;

  explicit Harness(Fleet fleet_in = Fleet{}) : fleet(std::move(fleet_in)) {
    executor = make_sim_executor(clock, fleet);
  }
  RunOutcome run(const RunRequest& request) {
    REQUIRE(executor->start(request, sink).ok());
    auto outcome = sink.wait_finished(request.job.id);
    REQUIRE(outcome);
    return *outcome;
  }
};

ImageInfo catalog_image(const std::string& ref, Json sim = nullptr) {
  ImageInfo image;
  image.ref = ref;
  image.digest = "sha256:" + std::string(64, 'a');
  image.size_mb = 30000;
  image.sim = std::move(sim);
  return image;
}

}  // namespace

TEST_CASE("sim_executor reports every phase in order, then a clean exit", "[exec][sim]") {
  Harness h;
  RunOutcome outcome = h.run(make_request("job_a", h.workspace.path(), Json{{"duration_s", 2}}));
  CHECK(h.sink.step_types("job_a") == std::vector<std::string>{"job.provisioning", "job.image_inspected",
                                                                "job.inputs_prepared", "job.container_starting",
                                                                "job.running"});
  CHECK(outcome.exit_code == 0);
  CHECK(outcome.failure_code.empty());
  CHECK_FALSE(outcome.timed_out);
  auto calls = h.sink.calls("job_a");
  CHECK(calls.back().kind == "finished");
  CHECK(h.sink.find("job_a", "step", "job.running")->phase == model::Phase::workload_execution);
  CHECK(h.sink.find("job_a", "step", "job.inputs_prepared")->phase == model::Phase::runtime_preparation);
  CHECK(h.sink.find("job_a", "step", "job.container_starting")->data["argv"] ==
        Json::array({"sim", "ghcr.io/acme/app:latest", "python", "run.py"}));
}

TEST_CASE("sim_executor prints the sim output lines, templates expanded", "[exec][sim]") {
  Harness h;
  Json sim{{"duration_s", 5}, {"stdout", {"hello", "step {i}/{n}"}}, {"stderr", {"warn"}}, {"stdout_every_s", 1}};
  h.run(make_request("job_out", h.workspace.path(), sim));
  CHECK(h.sink.lines("job_out", "stdout") ==
        std::vector<std::string>{"hello", "step 1/4", "step 2/4", "step 3/4", "step 4/4"});
  CHECK(h.sink.lines("job_out", "stderr") == std::vector<std::string>{"warn"});
}

TEST_CASE("sim_executor writes sim and expected artifacts into the workspace", "[exec][sim]") {
  Harness h;
  auto request = make_request("job_art", h.workspace.path(),
                              Json{{"duration_s", 1}, {"artifacts", {{"/workspace/artifacts/out/a.txt", "A"}}}});
  request.job.spec.edit().expected_artifacts = {"/workspace/artifacts/result.json"};
  h.run(request);
  auto dir = h.workspace.path() / "artifacts";
  CHECK(read_text(dir / "out" / "a.txt") == "A");
  Json result = Json::parse(read_text(dir / "result.json"));
  CHECK(result["job_id"] == "job_art");
  CHECK(result["ok"] == true);
}

TEST_CASE("sim_executor ends with the sim's exit code", "[exec][sim]") {
  Harness h;
  auto request = make_request("job_exit", h.workspace.path(), Json{{"duration_s", 1}, {"exit_code", 3}});
  request.job.spec.edit().expected_artifacts = {"/workspace/artifacts/result.json"};
  RunOutcome outcome = h.run(request);
  CHECK(outcome.exit_code == 3);
  CHECK(outcome.failure_code == "NONZERO_EXIT");
  CHECK(h.sink.lines("job_exit", "stderr").size() == 1);
  CHECK_FALSE(std::filesystem::exists(h.workspace.path() / "artifacts" / "result.json"));
}

TEST_CASE("sim_executor fail_start fails before the workload runs", "[exec][sim]") {
  Harness h;
  RunOutcome outcome = h.run(make_request("job_fs", h.workspace.path(), Json{{"fail_start", true}}));
  CHECK(outcome.failure_code == "START_FAILED");
  CHECK_FALSE(outcome.exit_code.has_value());
  auto steps = h.sink.step_types("job_fs");
  CHECK(steps.back() == "job.container_starting");
  CHECK(h.sink.lines("job_fs", "stdout").empty());
}

// Timings are compared with margins far above real-time scheduling jitter
// (1 real ms is 1000 clock ms here).
TEST_CASE("sim_executor times out at the job's timeout_seconds, in clock time", "[exec][sim]") {
  Harness h;
  auto request = make_request("job_to", h.workspace.path(),
                              Json{{"duration_s", 1000}, {"stdout", {"tick {i}"}}, {"stdout_every_s", 1}});
  request.job.spec.edit().timeout_seconds = 100;
  RunOutcome outcome = h.run(request);
  CHECK(outcome.timed_out);
  CHECK(outcome.failure_code == "TIMED_OUT");
  CHECK_FALSE(outcome.exit_code.has_value());
  auto ticks = h.sink.lines("job_to", "stdout");
  REQUIRE(ticks.size() == 100);
  CHECK(ticks.back() == "tick 100");
  auto running = h.sink.find("job_to", "step", "job.running");
  auto end = h.sink.find("job_to", "finished", "TIMED_OUT");
  CHECK(end->at_ms - running->at_ms > 80000);
  CHECK(end->at_ms - running->at_ms < 500000);
}

TEST_CASE("sim_executor sim.timeout and sim.oom end the run as asked", "[exec][sim]") {
  Harness h;
  CHECK(h.run(make_request("job_hang", h.workspace.path(), Json{{"duration_s", 1}, {"timeout", true}})).timed_out);
  RunOutcome oom = h.run(make_request("job_oom", h.workspace.path(), Json{{"duration_s", 1}, {"oom", true}}));
  CHECK(oom.exit_code == 137);
  CHECK(oom.failure_code == "OOM");
}

TEST_CASE("sim_executor cancel stops every later sink call", "[exec][sim]") {
  Harness h;
  REQUIRE(h.executor->start(make_request("job_c", h.workspace.path(), Json{{"duration_s", 3600}}), h.sink).ok());
  REQUIRE(h.sink.wait_step("job_c", "job.running"));
  h.executor->cancel("job_c");
  auto seen = h.sink.calls("job_c").size();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // 100 s of clock time
  CHECK(h.sink.calls("job_c").size() == seen);
  CHECK_FALSE(h.sink.wait_finished("job_c", std::chrono::milliseconds(1)));
  h.executor->cancel("job_unknown");
}

TEST_CASE("sim_executor pulls an image once per node", "[exec][sim]") {
  Fleet fleet;
  fleet.images.push_back(catalog_image("ghcr.io/acme/app:latest"));
  Harness h(fleet);
  h.run(make_request("job_p1", h.workspace.path(), Json{{"duration_s", 1}}));
  h.run(make_request("job_p2", h.workspace.path(), Json{{"duration_s", 1}}));
  h.run(make_request("job_p3", h.workspace.path(), Json{{"duration_s", 1}}, make_node("mi300x-east-2")));
  auto pull_s = [&](const std::string& id) { return h.sink.find(id, "step", "job.image_inspected")->data["pull_s"]; };
  CHECK(pull_s("job_p1").get<double>() == Approx(30.0));  // 30000 MB at 1000 MB/s
  CHECK(pull_s("job_p2").get<double>() == 0.0);
  CHECK(h.sink.find("job_p2", "step", "job.image_inspected")->data["cached"] == true);
  CHECK(pull_s("job_p3").get<double>() == Approx(30.0));
  auto startup = [&](const std::string& id) {
    return h.sink.find(id, "step", "job.running")->at_ms - h.sink.find(id, "step", "job.provisioning")->at_ms;
  };
  CHECK(startup("job_p1") - startup("job_p2") > 20000);
}

TEST_CASE("sim_executor reports the catalog digest and the catalog's behaviour", "[exec][sim]") {
  Fleet fleet;
  fleet.images.push_back(catalog_image("ghcr.io/acme/app:latest", Json{{"duration_s", 1}, {"stdout", {"from image"}}}));
  Harness h(fleet);
  h.run(make_request("job_d", h.workspace.path()));
  CHECK(h.sink.find("job_d", "digest", "")->text == "sha256:" + std::string(64, 'a'));
  CHECK(h.sink.lines("job_d", "stdout") == std::vector<std::string>{"from image"});
  h.run(make_request("job_d2", h.workspace.path(), Json{{"stdout", {"from job"}}}));
  CHECK(h.sink.lines("job_d2", "stdout") == std::vector<std::string>{"from job"});
}

TEST_CASE("sim_executor says nothing of a digest for an image it does not know", "[exec][sim]") {
  Harness h;
  h.run(make_request("job_nd", h.workspace.path(), Json{{"duration_s", 0}}));
  CHECK_FALSE(h.sink.find("job_nd", "digest", ""));
  CHECK(h.sink.find("job_nd", "step", "job.image_inspected")->data["digest"].is_null());
}

TEST_CASE("sim_executor refuses a bad sim object, a second start and a start after shutdown", "[exec][sim]") {
  Harness h;
  Status bad = h.executor->start(make_request("job_bad", h.workspace.path(), Json{{"exit_code", "x"}}), h.sink);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().code == "START_FAILED");
  CHECK_THAT(bad.error().message, Catch::Contains("sim.exit_code"));
  auto request = make_request("job_twice", h.workspace.path(), Json{{"duration_s", 3600}});
  REQUIRE(h.executor->start(request, h.sink).ok());
  CHECK_FALSE(h.executor->start(request, h.sink).ok());
  h.executor->shutdown();
  CHECK_FALSE(h.sink.wait_finished("job_twice", std::chrono::milliseconds(20)));
  CHECK(h.executor->start(make_request("job_late", h.workspace.path()), h.sink).error().code == "START_FAILED");
}
