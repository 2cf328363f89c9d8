#include "exec/sim_plan.hpp"

#include <catch2/catch.hpp>
#include <limits>

#include "recording_sink.hpp"

using namespace jgrid;
using namespace jgrid::exec;
using jgrid::exec::testing::make_request;

namespace {

RunPlan plan_for(RunRequest request, const Json& sim = nullptr, std::uint64_t seed = 42) {
  auto behaviour = resolve_behaviour(sim, nullptr);
  REQUIRE(behaviour.ok());
  return plan_run(request, behaviour.value(), seed);
}

RunRequest request_of(model::WorkloadType type, Json sim = nullptr) {
  auto request = make_request("job_plan", "/tmp/unused", std::move(sim));
  request.job.spec.edit().workload_type = type;
  return request;
}

std::vector<std::string> texts(const RunPlan& plan, const std::string& stream) {
  std::vector<std::string> out;
  for (const auto& line : plan.lines)
    if (line.stream == stream) out.push_back(line.text);
  return out;
}

}  // namespace

TEST_CASE("sim_plan::plan_run is the same for the same job and seed", "[exec][sim]") {
  auto request = request_of(model::WorkloadType::training);
  request.node.startup = {1.0, 20.0, 400.0};
  RunPlan a = plan_for(request), b = plan_for(request);
  CHECK(a.provision_ms == b.provision_ms);
  CHECK(a.run_ms == b.run_ms);
  CHECK(a.provision_ms >= 1000);
  CHECK(a.provision_ms <= 20000);
  RunPlan other = plan_for(request, nullptr, 43);
  CHECK((other.provision_ms != a.provision_ms || other.run_ms != a.run_ms));
}

TEST_CASE("sim_plan::plan_run derives the duration from workload, model size and node speed", "[exec][sim]") {
  CHECK(plan_for(request_of(model::WorkloadType::inference)).run_ms == Approx(8000).epsilon(0.11));
  CHECK(plan_for(request_of(model::WorkloadType::batch)).run_ms == Approx(10000).epsilon(0.11));
  CHECK(plan_for(request_of(model::WorkloadType::fine_tuning)).run_ms == Approx(20000).epsilon(0.11));
  auto big = request_of(model::WorkloadType::inference);
  big.job.spec.edit().model_size_gb = 70;
  CHECK(plan_for(big).run_ms == Approx(8000 * 1.7).epsilon(0.11));
  auto slow = request_of(model::WorkloadType::inference);
  slow.node.speed = 0.5;
  CHECK(plan_for(slow).run_ms == Approx(2 * plan_for(request_of(model::WorkloadType::inference)).run_ms).margin(1));
  CHECK(plan_for(request_of(model::WorkloadType::inference), Json{{"duration_s", 3}}).run_ms == 3000);
}

TEST_CASE("sim_plan::plan_run prints plausible default lines for the workload", "[exec][sim]") {
  RunPlan plan = plan_for(request_of(model::WorkloadType::training));
  auto lines = texts(plan, "stdout");
  REQUIRE(lines.size() > 4);
  CHECK(lines.front() == "initialising training on 1× AMD MI300X (ROCm 6.2)");
  CHECK_THAT(lines[1], Catch::StartsWith("step 1/"));
  CHECK(lines.back() == "training complete");
  for (const auto& line : plan.lines) CHECK(line.offset_ms < plan.run_ms);
}

TEST_CASE("sim_plan::plan_run squeezes lines that do not fit the duration", "[exec][sim]") {
  RunPlan plan = plan_for(request_of(model::WorkloadType::batch),
                          Json{{"duration_s", 2}, {"stdout", {"a", "b", "c", "d"}}, {"stdout_every_s", 1}});
  CHECK(texts(plan, "stdout") == std::vector<std::string>{"a", "b", "c", "d"});
  CHECK(plan.lines.back().offset_ms == 1500);
}

TEST_CASE("sim_plan::plan_run ends runs by timeout, OOM or exit code", "[exec][sim]") {
  auto timed = request_of(model::WorkloadType::batch, Json{{"duration_s", 60}});
  timed.job.spec.edit().timeout_seconds = 10;
  RunPlan timeout = plan_for(timed, Json{{"duration_s", 60}});
  CHECK(timeout.run_ms == 10000);
  CHECK(timeout.outcome.timed_out);
  CHECK(timeout.outcome.failure_code == "TIMED_OUT");

  RunPlan hang = plan_for(request_of(model::WorkloadType::batch), Json{{"duration_s", 4}, {"timeout", true}});
  CHECK(hang.run_ms == 4000);
  CHECK(hang.outcome.timed_out);

  RunPlan oom = plan_for(request_of(model::WorkloadType::batch), Json{{"duration_s", 4}, {"oom", true}});
  CHECK(oom.run_ms == 2000);
  CHECK(oom.outcome.exit_code == 137);
  CHECK_THAT(texts(oom, "stderr").back(), Catch::Contains("HIP out of memory"));

  RunPlan failed = plan_for(request_of(model::WorkloadType::batch), Json{{"duration_s", 4}, {"exit_code", 2}});
  CHECK(failed.outcome.exit_code == 2);
  CHECK(failed.outcome.failure_code == "NONZERO_EXIT");

  RunPlan no_start = plan_for(request_of(model::WorkloadType::batch), Json{{"fail_start", true}});
  CHECK(no_start.fail_start);
  CHECK(no_start.outcome.failure_code == "START_FAILED");
  CHECK(no_start.lines.empty());
}

TEST_CASE("sim_plan::plan_run writes expected artifacts only on success", "[exec][sim]") {
  auto request = request_of(model::WorkloadType::batch, Json{{"duration_s", 1}});
  request.job.spec.edit().expected_artifacts = {"/workspace/artifacts/result.json", "/workspace/artifacts/log.txt"};
  RunPlan ok = plan_for(request);
  REQUIRE(ok.artifacts.size() == 2);
  Json result = Json::parse(ok.artifacts.at("result.json"));
  CHECK(result["job_id"] == "job_plan");
  CHECK(result["ok"] == true);
  CHECK_THAT(ok.artifacts.at("log.txt"), Catch::Contains("job_plan"));

  RunPlan named = plan_for(request, Json{{"artifacts", {{"/workspace/artifacts/result.json", "mine"}}}});
  CHECK(named.artifacts.at("result.json") == "mine");

  RunPlan failed = plan_for(request, Json{{"exit_code", 1}, {"artifacts", {{"partial.txt", "p"}}}});
  CHECK(failed.artifacts == std::map<std::string, std::string>{{"partial.txt", "p"}});
}

TEST_CASE("exec::plan_run with SimOutput::at_end makes no default progress lines and changes nothing else", "[exec]") {
  auto request = request_of(model::WorkloadType::training, Json{{"duration_s", 600}});
  auto behaviour = resolve_behaviour(Json{{"duration_s", 600}}, nullptr);
  REQUIRE(behaviour.ok());
  RunPlan live = plan_run(request, behaviour.value(), 7, SimOutput::live);
  RunPlan quiet = plan_run(request, behaviour.value(), 7, SimOutput::at_end);
  CHECK(live.lines.size() > 100);  // a line a second
  CHECK(quiet.lines.empty());
  CHECK(quiet.run_ms == live.run_ms);
  CHECK(quiet.provision_ms == live.provision_ms);
  CHECK(quiet.outcome.exit_code == live.outcome.exit_code);

  auto named = resolve_behaviour(Json{{"duration_s", 600}, {"stdout", {"hello"}}, {"exit_code", 3}}, nullptr);
  REQUIRE(named.ok());
  RunPlan failing = plan_run(request, named.value(), 7, SimOutput::at_end);
  CHECK(texts(failing, "stdout") == std::vector<std::string>{"hello"});  // lines the job names stay
  CHECK_FALSE(texts(failing, "stderr").empty());                         // and its failure line
}

TEST_CASE("exec::plan_run saturates a timeout too long for clock milliseconds instead of wrapping", "[exec][limits]") {
  // The decoder refuses such a timeout; a stored spec of an older build may still carry one.
  auto request = request_of(model::WorkloadType::inference);
  request.job.spec.edit().timeout_seconds = 1e16;
  RunPlan plan = plan_for(request, Json{{"duration_s", 5}});
  CHECK(plan.run_ms == 5000);
  CHECK_FALSE(plan.outcome.timed_out);
  request.job.spec.edit().timeout_seconds = 1e308;
  RunPlan hang = plan_for(request, Json{{"duration_s", 5}, {"timeout", true}});
  CHECK(hang.outcome.timed_out);
  CHECK(hang.run_ms == std::numeric_limits<std::int64_t>::max());
  for (const auto& line : hang.lines) CHECK(line.offset_ms >= 0);
}
