#pragma once
// Jobs with every member set, for codec tests.
#include "jgrid/model/job.hpp"

namespace jgrid::model::test {

inline constexpr std::int64_t k_t0 = 1'790'000'000'000;  // 2026-09-21

inline Job queued_job() {
  Job job;
  job.id = "job_01TEST";
  job.spec.edit().name = "infer-1";
  job.spec.edit().image = "rocm/vllm:latest";
  job.spec.edit().command = {"vllm", "serve"};
  job.spec.edit().environment = {{"HF_TOKEN", "secret-value"}, {"MODE", "fast"}};
  job.spec.edit().gpu_vendor = "amd";
  job.status = JobStatus::queued;
  job.phase = Phase::queued;
  job.created_ms = job.updated_ms = job.queued_ms = k_t0;
  job.phase_started_ms = job.phase_updated_ms = k_t0;
  job.estimated_cost_usd = 0.4;
  return job;
}

inline Placement mi300x_placement() {
  Placement p;
  p.node_id = "node_mi300x-east-1";
  p.node_name = "mi300x-east-1";
  p.provider = "simulated";
  p.region = "us-east";
  p.gpu_vendor = "amd";
  p.gpu_model = "MI300X";
  p.gpu_family = "instinct";
  p.runtime = "rocm";
  p.runtime_version = "6.2";
  p.gpu_count = 1;
  p.gpu_indices = {3};
  p.price_per_gpu_hour = 2.1;
  p.reason = "cheapest feasible";
  p.score = 0.75;
  p.candidates = 4;
  return p;
}

// A failed job with every optional member set.
inline Job failed_job() {
  Job job = queued_job();
  job.workspace = "w1";
  job.status = JobStatus::failed;
  job.phase = Phase::done;
  job.status_reason = "nonzero exit";
  job.status_message = "The workload exited with code 3.";
  job.started_ms = k_t0 + 5'000;
  job.completed_ms = k_t0 + 65'000;
  job.updated_ms = k_t0 + 65'000;
  job.placement = mi300x_placement();
  job.image_digest = "sha256:abc";
  job.exit_code = 3;
  job.timed_out = true;
  job.attempts = 2;
  job.failure = Failure{"NONZERO_EXIT", "exit code 3"};
  job.delay = DelayReason{"CAPACITY_UNAVAILABLE", "waiting for an MI300X"};
  job.delayed_start = true;
  job.stdout_tail = "out\n";
  job.stderr_tail = "err\n";
  job.log_truncated = true;
  job.command_spawned = job.inputs_prepared = job.scripts_prepared = job.artifacts_ready = true;
  job.actual_cost_usd = 0.035;
  job.screening = Json{{"checks", {{{"rule", "image.rocm"}, {"status", "pass"}}}}, {"warnings", Json::array()}}.dump();
  job.callback = CallbackState{"http://cb.test/", "failed", 8, "HTTP 500"};
  job.spec.edit().callback = CallbackSpec{"http://cb.test/", "tok", Json::object()};
  job.idempotency_key = "idem-1";
  job.request_hash = "deadbeef";
  return job;
}

}  // namespace jgrid::model::test
