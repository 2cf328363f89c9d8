#include <thread>

#include "engine_fixture.hpp"
#include "jgrid/screen/screen.hpp"

using namespace jgrid;
using jgrid::model::JobStatus;
using jgrid::test::EngineFixture;
using jgrid::test::example_image;
using jgrid::test::example_request;
using jgrid::test::make_node;
using jgrid::test::make_spec;

namespace {

engine::SubmitRequest keyed(model::JobSpec spec, const std::string& key, const std::string& hash) {
  engine::SubmitRequest request{std::move(spec)};
  request.idempotency_key = key;
  request.request_hash = hash;
  return request;
}

bool has_string(const model::Json& list, const std::string& text) {
  for (const auto& item : list)
    if (item.is_string() && item.get<std::string>().find(text) != std::string::npos) return true;
  return false;
}

// Submits `spec` expecting SCREENING_REJECTED; checks nothing was stored.
Error rejected(EngineFixture& f, const model::JobSpec& spec) {
  auto result = f.engine->submit(engine::SubmitRequest{spec});
  REQUIRE_FALSE(result);
  CHECK(result.error().code == "SCREENING_REJECTED");
  f.store->flush();
  CHECK(f.store->count_jobs() == 0);
  return result.error();
}

std::vector<model::Node> mixed_fleet() {
  return {make_node("mi300x-1", "amd", 8), make_node("mi300x-2", "amd", 8), make_node("h100-1", "nvidia", 8),
          make_node("h100-2", "nvidia", 8)};
}

}  // namespace

TEST_CASE("engine::submit makes the job durable with job.submitted, job.screened and job.queued", "[engine]") {
  EngineFixture f({make_node("mi300x-1", "amd", 8)});
  f.clock->advance(0);
  auto result = f.engine->submit(engine::SubmitRequest{make_spec("amd")});
  REQUIRE(result);
  CHECK_FALSE(result->replayed);
  const model::Job& job = result->job;
  CHECK(job.id.rfind("job_", 0) == 0);
  CHECK(job.status == JobStatus::queued);
  CHECK(job.phase == model::Phase::queued);
  CHECK(job.spec->name.rfind("inference-", 0) == 0);
  CHECK(job.spec->name.size() == std::string("inference-").size() + 14);
  CHECK(job.created_ms == f.clock->now_ms());
  CHECK(job.queued_ms == job.created_ms);
  CHECK(job.estimated_cost_usd > 0);
  REQUIRE(f.store->get_job(job.id));  // no flush: committed before submit returned
  auto events = f.store->list_events(store::EventQuery{job.id, 0, "", 0, 3});
  REQUIRE(events.size() == 3);
  CHECK(events[0].type == "job.submitted");
  CHECK(events[0].source == "api");
  CHECK(events[0].data["gpu_vendor"] == "amd");
  CHECK(events[1].type == "job.screened");
  CHECK(events[1].source == "screener");
  CHECK(events[1].level == "info");
  CHECK(events[2].type == "job.queued");
  CHECK(events[2].source == "scheduler");
  CHECK(jgrid::model::Json::parse(*job.screening)["checks"].size() == jgrid::screen::rule_ids().size());
  CHECK(jgrid::model::Json::parse(*job.screening)["warnings"].empty());
}

TEST_CASE("engine::submit keeps a given name", "[engine]") {
  EngineFixture f({make_node("mi300x-1", "amd", 8)});
  model::JobSpec spec = make_spec("amd");
  spec.name = "my-run";
  CHECK(f.submit(spec).spec->name == "my-run");
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

TEST_CASE("engine::submit runs the example request on AMD after it passes screening", "[engine][rocm]") {
  EngineFixture f(mixed_fleet(), {}, nullptr, {example_image()});
  model::Job job = f.submit_running(example_request());
  auto running = *f.stored(job.id);
  REQUIRE(running.placement);
  CHECK(running.placement->gpu_vendor == "amd");
  CHECK(running.placement->runtime == "rocm");
  const auto screening = jgrid::model::Json::parse(*running.screening);  // outlives the loop below
  CHECK(screening["warnings"].empty());
  for (const auto& check : screening["checks"]) CHECK(check["status"] == "pass");
  auto screened = f.events(job.id, "job.screened");
  REQUIRE(screened.size() == 1);
  CHECK(screened[0].level == "info");
  CHECK(screened[0].data["intent"]["gpu_vendor"] == "amd");
  auto route = f.events(job.id, "job.route_selected");
  REQUIRE(route.size() == 1);
  CHECK(route[0].data["candidates"] == 2);
  CHECK(route[0].data["runner_up_count"] == 1);
  CHECK(route[0].data["reasons_summary"] == "2 nodes: vendor nvidia ≠ amd");
}

TEST_CASE("engine::submit refuses a CUDA image under AMD intent and stores nothing", "[engine][rocm]") {
  EngineFixture f(mixed_fleet());
  model::JobSpec spec = example_request();
  spec.image = "nvidia/cuda:12.4.0-runtime-ubuntu22.04";
  Error error = rejected(f, spec);
  CHECK(error.message == "screening blocked the workload: image.cuda_name");
  CHECK(error.details["blocked_checks"] == model::Json::array({"image.cuda_name"}));
  CHECK(error.details["checks"].size() == jgrid::screen::rule_ids().size());
  CHECK(has_string(error.details["fixes"], "rocm/pytorch"));
  CHECK(f.store->list_events(store::EventQuery{"", 0, "", 0, 10}).empty());
}

TEST_CASE("engine::submit refuses nvidia-smi under AMD intent", "[engine][rocm]") {
  EngineFixture f(mixed_fleet());
  model::JobSpec spec = example_request();
  spec.command = {"nvidia-smi"};
  Error error = rejected(f, spec);
  CHECK(error.details["blocked_checks"] == model::Json::array({"command.nvidia_tool"}));
  CHECK(error.message == "screening blocked the workload: command.nvidia_tool");
}

TEST_CASE("engine::submit screens the image metadata the fleet catalog knows", "[engine][rocm]") {
  exec::ImageInfo cuda_inside = example_image();
  cuda_inside.ref = "ghcr.io/acme/app:latest";
  cuda_inside.labels = {};
  cuda_inside.env = {{"CUDA_VERSION", "12.4.0"}};
  EngineFixture f(mixed_fleet(), {}, nullptr, {cuda_inside});
  model::JobSpec spec = make_spec("amd");
  spec.image = "ghcr.io/acme/app:latest";
  CHECK(rejected(f, spec).details["blocked_checks"] == model::Json::array({"image.cuda_metadata"}));
}

TEST_CASE("engine::submit places a CUDA-looking image without intent on NVIDIA only", "[engine][rocm]") {
  EngineFixture f(mixed_fleet());
  model::JobSpec spec = make_spec("", 4);
  spec.image = "nvcr.io/nvidia/pytorch:24.01-py3";
  for (int i = 0; i < 4; ++i) {
    model::Job job = f.submit_running(spec);
    auto placed = *f.stored(job.id);
    REQUIRE(placed.placement);
    CHECK(placed.placement->gpu_vendor == "nvidia");
    REQUIRE(jgrid::model::Json::parse(*placed.screening)["warnings"].size() == 1);
    CHECK(jgrid::model::Json::parse(*placed.screening)["warnings"][0]["rule"] == "intent.unknown_cuda_heavy");
    auto screened = f.events(job.id, "job.screened");
    REQUIRE(screened.size() == 1);
    CHECK(screened[0].level == "warning");
    CHECK(screened[0].data["warnings"] == model::Json::array({"intent.unknown_cuda_heavy"}));
  }
  spec.gpu_count = 1;  // the NVIDIA nodes are full now: it waits rather than move to the idle AMD nodes
  model::Job waiting = f.submit(spec);
  REQUIRE(jgrid::test::eventually([&] { return f.stored(waiting.id)->delay.has_value(); }));
  CHECK(f.stored(waiting.id)->delay->message ==
        "no node has free capacity now: 2 nodes: vendor amd ≠ nvidia; 2 nodes: 0 of 8 GPUs free");
  CHECK_FALSE(f.executor->was_started(waiting.id));
}

TEST_CASE("engine::submit gives CAPACITY_UNAVAILABLE for a CUDA-only workload on an AMD-only fleet", "[engine][rocm]") {
  EngineFixture f({make_node("mi300x-1", "amd", 8)});
  model::JobSpec spec = make_spec("");
  spec.image = "nvcr.io/nvidia/pytorch:24.01-py3";
  auto result = f.engine->submit(engine::SubmitRequest{spec});
  REQUIRE_FALSE(result);
  CHECK(result.error().code == "CAPACITY_UNAVAILABLE");
  const std::string& message = result.error().message;
  CHECK(message.find("declare ROCm compatibility (gpu_vendor: amd + runtime: rocm with a ROCm image)") !=
        std::string::npos);
  CHECK(message.find("select an NVIDIA route") != std::string::npos);
  CHECK(result.error().details["unknown_cuda_heavy"] == true);
  CHECK(result.error().details["retry_after_seconds"] == 30);
  CHECK(f.store->count_jobs() == 0);
}

TEST_CASE("engine::submit gives CAPACITY_UNAVAILABLE for AMD intent on a fleet without AMD", "[engine][rocm]") {
  EngineFixture f({make_node("h100-1", "nvidia", 8)});
  auto result = f.engine->submit(engine::SubmitRequest{example_request()});
  REQUIRE_FALSE(result);
  CHECK(result.error().code == "CAPACITY_UNAVAILABLE");
  CHECK(result.error().message == "no AMD/ROCm node in the fleet: declare a different route or add capacity");
  CHECK(result.error().details["gpu_vendor"] == "amd");
  CHECK(f.store->count_jobs() == 0);
}
