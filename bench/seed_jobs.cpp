// Fills a data dir's store with terminal jobs for bench/million_jobs.sh:
// realistic documents (specs decoded from request bodies, screening from the
// screener, a placement, timestamps, an output tail) and one job.completed /
// job.failed / job.cancelled event each, committed in large batches through
// the store's public interface. Creation times are spread over the last
// 30 days, oldest first, so ids sort by creation as the engine's do.
//
// Usage: seed_jobs DATA_DIR COUNT IDS_FILE
//   writes DATA_DIR/jgrid.db (appends to an existing one) and one job id per
//   line to IDS_FILE; prints jobs/s.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <future>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "jgrid/model/job.hpp"
#include "jgrid/screen/screen.hpp"
#include "jgrid/store/store.hpp"
#include "jgrid/util/ids.hpp"

namespace {

using namespace jgrid;
using Json = model::Json;

constexpr std::size_t k_batch_jobs = 20000;
constexpr std::int64_t k_span_ms = 30LL * 24 * 3600 * 1000;

// One kind of job: what was asked and where it ran.
struct Template {
  model::JobSpec spec;
  model::Placement placement;
  std::string screening;
  double run_s;
};

model::Placement placement(const std::string& pool, const std::string& vendor, const std::string& model_name,
                           int gpus, double price) {
  model::Placement p;
  p.node_id = "node_" + pool + "-1";
  p.node_name = pool + "-1";
  p.provider = "simulated";
  p.region = "us-east";
  p.gpu_vendor = vendor;
  p.gpu_model = model_name;
  p.gpu_family = vendor == "amd" ? "instinct" : "hopper";
  p.runtime = vendor == "amd" ? "rocm" : "cuda";
  p.runtime_version = vendor == "amd" ? "6.2" : "12.4";
  p.gpu_count = gpus;
  for (int i = 0; i < gpus; ++i) p.gpu_indices.push_back(i);
  p.price_per_gpu_hour = price;
  p.reason = "balanced: leaves 0 of " + std::to_string(gpus) + " GPUs free; best of 5 feasible nodes";
  p.score = 100.125;
  p.candidates = 5;
  return p;
}

Template make_template(const char* body, model::Placement where, double run_s) {
  auto spec = model::decode_job_spec(Json::parse(body), model::SpecMode::submit);
  if (!spec) throw std::runtime_error("template: " + spec.error().message);
  std::string screening = screen::job_screening_json(screen::screen(*spec, {}));
  return {std::move(*spec), std::move(where), std::move(screening), run_s};
}

std::vector<Template> templates() {
  return {
      make_template(R"({"name": "rocm-inference", "workload_type": "inference",
        "image": "ghcr.io/acme/pytorch-rocm:latest", "gpu_vendor": "amd", "runtime": "rocm",
        "framework": "pytorch-rocm", "command": ["python", "infer.py", "--batch", "32"],
        "expected_artifacts": ["/workspace/artifacts/result.json"], "metadata": {"team": "search"}})",
                    placement("w7900-east", "amd", "Radeon PRO W7900", 1, 0.6), 40),
      make_template(R"({"name": "llama-finetune", "workload_type": "fine_tuning",
        "image": "rocm/vllm:latest", "gpu_vendor": "amd", "runtime": "rocm", "framework": "vllm",
        "gpu_count": 8, "command": ["torchrun", "--nproc-per-node", "8", "train.py"],
        "environment": {"HF_HOME": "/workspace/hf", "EPOCHS": "3"}, "labels": {"project": "llm"},
        "expected_artifacts": ["/workspace/artifacts/adapter.safetensors"]})",
                    placement("mi300x-east", "amd", "MI300X", 8, 2.1), 1800),
      make_template(R"({"name": "nightly-batch", "workload_type": "batch",
        "image": "nvidia/cuda:12.4.0-runtime-ubuntu22.04", "gpu_vendor": "nvidia",
        "command": ["bash", "-lc", "./run_batch.sh --shard 7"], "metadata": {"schedule": "nightly"}})",
                    placement("h100-west", "nvidia", "H100", 1, 2.9), 300),
  };
}

// A terminal job of kind 0 (completed), 1 (failed) or 2 (cancelled) created at `created_ms`.
model::Job make_job(const Template& t, std::int64_t created_ms, int kind, std::mt19937_64& random) {
  model::Job job;
  job.created_ms = job.queued_ms = created_ms;
  job.id = util::new_id("job", created_ms);
  job.spec = t.spec;
  job.placement = t.placement;
  job.screening = t.screening;
  job.image_digest = "sha256:2a01f7b54cefde4867b27fdbd871034c83bc9ce047fc49490fc20f43e3c5ddbc";
  job.attempts = 1;
  job.phase = model::Phase::done;
  job.started_ms = created_ms + 2000 + static_cast<std::int64_t>(random() % 8000);
  const auto run_ms = static_cast<std::int64_t>(t.run_s * 1000 * (0.5 + (random() % 1000) / 1000.0));
  job.completed_ms = *job.started_ms + run_ms;
  job.updated_ms = job.phase_started_ms = job.phase_updated_ms = *job.completed_ms;
  job.command_spawned = job.inputs_prepared = job.scripts_prepared = true;
  job.estimated_cost_usd = t.placement.price_per_gpu_hour * t.placement.gpu_count * t.run_s / 3600;
  job.actual_cost_usd = t.placement.price_per_gpu_hour * t.placement.gpu_count * run_ms / 3.6e6;
  char hash[65];
  std::snprintf(hash, sizeof hash, "%016llx%016llx%016llx%016llx", static_cast<unsigned long long>(random()),
                static_cast<unsigned long long>(random()), static_cast<unsigned long long>(random()),
                static_cast<unsigned long long>(random()));
  job.request_hash = hash;
  job.stdout_tail = "loading model\nstep 1/3\nstep 2/3\nstep 3/3\n{\"label\": \"EAR99\", \"score\": 0.97}\n";
  if (kind == 0) {
    job.status = model::JobStatus::completed;
    job.exit_code = 0;
    job.status_reason = "exit code 0";
    job.status_message = "completed with exit code 0";
    job.artifacts_ready = true;
  } else if (kind == 1) {
    job.status = model::JobStatus::failed;
    job.exit_code = 1;
    job.status_reason = "exit code 1";
    job.status_message = "the workload exited with code 1";
    job.failure = model::Failure{"NONZERO_EXIT", "the workload exited with code 1"};
    job.stderr_tail = "Traceback (most recent call last):\n  File \"infer.py\", line 12\nRuntimeError: bad input\n";
  } else {
    job.status = model::JobStatus::cancelled;
    job.status_reason = "cancelled by user";
    job.status_message = "cancelled: no longer needed";
  }
  return job;
}

model::Event final_event(const model::Job& job, std::int64_t seq) {
  model::Event event;
  event.seq = seq;
  event.id = util::new_id("evt", job.updated_ms);
  event.job_id = job.id;
  event.sequence = 1;
  event.type = "job." + std::string(model::to_string(job.status));
  event.phase = "done";
  event.title = model::event_title(event.type);
  event.message = job.status_message;
  event.source = "executor";
  event.level = job.status == model::JobStatus::failed ? "error" : "info";
  event.created_ms = job.updated_ms;
  if (job.exit_code) event.data = {{"exit_code", *job.exit_code}};
  return event;
}

int kind_of(std::mt19937_64& random) {
  auto roll = random() % 100;
  return roll < 94 ? 0 : roll < 99 ? 1 : 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: seed_jobs DATA_DIR COUNT IDS_FILE\n";
    return 2;
  }
  const std::string dir = argv[1];
  const std::int64_t count = std::stoll(argv[2]);
  std::ofstream ids(argv[3]);
  auto store = store::Store::open({dir + "/jgrid.db", false});
  if (!store) {
    std::cerr << store.error().message << "\n";
    return 1;
  }
  const auto all = templates();
  std::mt19937_64 random(42);
  const auto t0 = std::chrono::steady_clock::now();
  const std::int64_t now_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  const std::int64_t first_ms = now_ms - k_span_ms, step_ms = std::max<std::int64_t>(k_span_ms / count, 1);
  std::int64_t seq = (*store)->counters().max_event_seq;
  std::future<Status> pending;
  for (std::int64_t i = 0; i < count;) {
    store::WriteBatch batch;
    for (std::size_t n = 0; n < k_batch_jobs && i < count; ++n, ++i) {
      auto job = make_job(all[i % all.size()], first_ms + i * step_ms, kind_of(random), random);
      batch.events.push_back(final_event(job, ++seq));
      ids << job.id << '\n';
      batch.jobs.push_back(std::move(job));
    }
    // Build the next batch while this one commits.
    if (pending.valid() && !pending.get()) return 1;
    pending = std::async(std::launch::async, [&s = **store, b = std::move(batch)]() mutable {
      auto status = s.commit(std::move(b));
      if (!status) std::cerr << status.error().message << "\n";
      return status;
    });
  }
  if (pending.valid() && !pending.get()) return 1;
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("seeded %lld jobs in %.1f s (%.0f jobs/s)\n", static_cast<long long>(count), secs, count / secs);
  return 0;
}
