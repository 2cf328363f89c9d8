#pragma once
// Test doubles for engine tests: a clock the test moves, an executor the
// test scripts (it reports steps, output and the end only when told), and a
// fixture wiring them to a real in-memory store.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "node_fixture.hpp"

#include "jgrid/engine/engine.hpp"
#include "jgrid/util/ids.hpp"

namespace jgrid::test {

namespace fs = std::filesystem;

class ManualClock final : public util::Clock {
 public:
  std::int64_t now_ms() const override { return m_now.load(); }
  double scale() const override { return 1.0; }
  void advance(std::int64_t ms) { m_now += ms; }

 private:
  std::atomic<std::int64_t> m_now{1'780'000'000'000};
};

class FakeExecutor final : public exec::Executor {
 public:
  std::string kind() const override { return "fake"; }

  Status start(exec::RunRequest request, exec::RunSink& sink) override {
    std::lock_guard lock(m_mutex);
    if (!m_fail_next.empty()) return make_error("START_FAILED", std::exchange(m_fail_next, ""));
    m_sink = &sink;
    m_started.push_back(request);
    m_changed.notify_all();
    return Ok{};
  }
  void cancel(const std::string& job_id) override {
    std::lock_guard lock(m_mutex);
    m_cancelled.push_back(job_id);
  }
  void shutdown() override { m_shutdowns++; }

  // Test controls. Sink calls are made from the calling (test) thread.
  void fail_next_start(std::string message) {
    std::lock_guard lock(m_mutex);
    m_fail_next = std::move(message);
  }
  bool wait_started(std::size_t count, std::chrono::milliseconds timeout = std::chrono::milliseconds(3000)) {
    std::unique_lock lock(m_mutex);
    return m_changed.wait_for(lock, timeout, [&] { return m_started.size() >= count; });
  }
  std::vector<exec::RunRequest> started() {
    std::lock_guard lock(m_mutex);
    return m_started;
  }
  bool was_started(const std::string& job_id) {
    std::lock_guard lock(m_mutex);
    for (const auto& request : m_started)
      if (request.job.id == job_id) return true;
    return false;
  }
  exec::RunRequest request_of(const std::string& job_id) {
    std::lock_guard lock(m_mutex);
    for (const auto& request : m_started)
      if (request.job.id == job_id) return request;
    FAIL("job " << job_id << " was never started");
    throw;
  }
  std::vector<std::string> cancelled() {
    std::lock_guard lock(m_mutex);
    return m_cancelled;
  }
  int shutdowns() const { return m_shutdowns; }

  void step(const std::string& id, model::Phase phase, const std::string& type) {
    sink().step(id, phase, type, type + " step", nlohmann::json{{"by", "fake"}});
  }
  void run(const std::string& id) {
    step(id, model::Phase::provisioning, "job.provisioning");
    step(id, model::Phase::workload_execution, "job.running");
  }
  void output(const std::string& id, const std::string& stream, const std::string& line) {
    sink().output(id, stream, line);
  }
  void output_lines(const std::string& id, const std::vector<exec::LogLine>& lines) {
    sink().output_lines(id, lines);
  }
  void finish(const std::string& id, std::optional<int> exit_code = 0) {
    exec::RunOutcome outcome;
    outcome.exit_code = exit_code;
    sink().finished(id, outcome);
  }
  void finish(const std::string& id, const exec::RunOutcome& outcome) { sink().finished(id, outcome); }

 private:
  exec::RunSink& sink() {
    std::lock_guard lock(m_mutex);
    REQUIRE(m_sink);
    return *m_sink;
  }

  std::mutex m_mutex;
  std::condition_variable m_changed;
  exec::RunSink* m_sink = nullptr;
  std::vector<exec::RunRequest> m_started;
  std::vector<std::string> m_cancelled;
  std::string m_fail_next;
  std::atomic<int> m_shutdowns{0};
};


// A job with `vendor` intent ("" or "any": none) on an image that matches it.
inline model::JobSpec make_spec(const std::string& vendor = "amd", int gpus = 1, const std::string& priority = "balanced") {
  model::JobSpec spec;
  spec.image = vendor == "amd"      ? "ghcr.io/acme/pytorch-rocm:latest"
               : vendor == "nvidia" ? "nvcr.io/nvidia/pytorch:24.01-py3"
                                    : "ghcr.io/acme/app:latest";
  spec.command = {"python", "infer.py"};
  spec.gpu_vendor = vendor;
  spec.gpu_count = gpus;
  spec.priority = priority;
  return spec;
}

// The seed's example request (docs/rocm.md §2): passes every screening rule.
inline model::JobSpec example_request() {
  model::JobSpec spec = make_spec("amd");
  spec.runtime = "rocm";
  spec.framework = "pytorch-rocm";
  return spec;
}

// The catalog entry a fleet file gives the example's image (docs/simulation.md §1).
inline exec::ImageInfo example_image() {
  exec::ImageInfo image;
  image.ref = "ghcr.io/acme/pytorch-rocm:latest";
  image.labels = {{"io.junglegrid.runtime", "rocm"}};
  image.env = {{"ROCM_VERSION", "6.2"}};
  image.digest = "sha256:0123";
  return image;
}

// Polls `condition` for up to `timeout`.
inline bool eventually(const std::function<bool()>& condition,
                       std::chrono::milliseconds timeout = std::chrono::milliseconds(3000)) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return condition();
}

struct EngineFixture {
  explicit EngineFixture(std::vector<model::Node> nodes, engine::EngineOptions options = {},
                         std::shared_ptr<store::Store> shared_store = nullptr,
                         std::vector<exec::ImageInfo> images = {}, std::uint64_t seed = 42) {
    data_dir = fs::temp_directory_path() / util::new_id("jgrid-engine-test", util::wall_now_ms());
    fs::create_directories(data_dir);
    options.data_dir = data_dir;
    if (shared_store) {
      store = std::move(shared_store);
    } else {
      auto opened = store::Store::open(store::StoreOptions{});
      REQUIRE(opened);
      store = std::move(*opened);
    }
    exec::Fleet fleet;
    fleet.seed = seed;
    fleet.nodes = std::move(nodes);
    fleet.images = std::move(images);
    engine = std::make_unique<engine::Engine>(*store, clock, fleet, exec::ExecutorRegistry{{"simulated", executor}},
                                              options);
    REQUIRE(engine->start());
  }
  ~EngineFixture() {
    engine.reset();
    std::error_code ignored;
    fs::remove_all(data_dir, ignored);
  }

  model::Job submit(model::JobSpec spec) {
    auto result = engine->submit(engine::SubmitRequest{std::move(spec)});
    REQUIRE(result);
    return result->job;
  }
  std::optional<model::Job> stored(const std::string& id) {
    store->flush();
    return store->get_job(id);
  }
  bool reaches(const std::string& id, model::JobStatus status) {
    return eventually([&] {
      auto job = stored(id);
      return job && job->status == status;
    });
  }
  std::vector<std::string> event_types(const std::string& id) {
    store->flush();
    std::vector<std::string> types;
    for (const auto& event : store->list_events(store::EventQuery{id, 0, "", 0, 1000})) types.push_back(event.type);
    return types;
  }
  std::vector<model::Event> events(const std::string& id, const std::string& type = "") {
    store->flush();
    return store->list_events(store::EventQuery{id, 0, type, 0, 1000});
  }
  // Submits, waits for the executor to get it and reports it running.
  model::Job submit_running(model::JobSpec spec) {
    std::size_t before = executor->started().size();
    model::Job job = submit(std::move(spec));
    REQUIRE(executor->wait_started(before + 1));
    executor->run(job.id);
    REQUIRE(reaches(job.id, model::JobStatus::running));
    return job;
  }

  fs::path data_dir;
  std::shared_ptr<ManualClock> clock = std::make_shared<ManualClock>();
  std::shared_ptr<FakeExecutor> executor = std::make_shared<FakeExecutor>();
  std::shared_ptr<store::Store> store;
  std::unique_ptr<engine::Engine> engine;
};

}  // namespace jgrid::test
