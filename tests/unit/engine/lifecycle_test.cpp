#include "engine/lifecycle.hpp"

#include <catch2/catch.hpp>

using namespace jgrid;
using namespace jgrid::engine;

TEST_CASE("engine::move_status follows the transition table", "[engine]") {
  model::Job job;
  job.status = model::JobStatus::queued;
  CHECK(move_status(job, model::JobStatus::assigned, 5));
  CHECK(job.updated_ms == 5);
  CHECK_FALSE(move_status(job, model::JobStatus::completed, 6));
  CHECK(job.status == model::JobStatus::assigned);
  CHECK(job.updated_ms == 5);
}

TEST_CASE("engine::enter_phase restarts the phase clock only on a change", "[engine]") {
  model::Job job;
  enter_phase(job, model::Phase::provisioning, 10);
  enter_phase(job, model::Phase::provisioning, 20);
  CHECK(job.phase_started_ms == 10);
  CHECK(job.phase_updated_ms == 20);
}

TEST_CASE("engine::run_cost charges price times GPUs times hours run", "[engine]") {
  model::Job job;
  CHECK(run_cost(job, 1000) == 0);
  job.placement = model::Placement{};
  job.placement->price_per_gpu_hour = 2.0;
  job.placement->gpu_count = 4;
  job.started_ms = 0;
  CHECK(run_cost(job, 30 * 60 * 1000) == Approx(4.0));
  CHECK(cost_for(3.0, 2, 60) == Approx(6.0));
}

TEST_CASE("engine::delay_code names the start phases only", "[engine]") {
  CHECK(delay_code(model::Phase::runtime_preparation) == "RUNTIME_PREPARATION_DELAYED");
  CHECK(delay_code(model::Phase::queued) == "QUEUE_DELAYED");
  CHECK(delay_code(model::Phase::workload_execution).empty());
  CHECK(format_duration(45'000) == "45s");
  CHECK(format_duration(6 * 60'000) == "6 min");
  CHECK(format_duration(125 * 60'000) == "2 h 5 min");
}

TEST_CASE("engine::generated_name is the workload type and a compact time", "[engine]") {
  model::JobSpec spec;
  spec.workload_type = model::WorkloadType::fine_tuning;
  CHECK(generated_name(spec, 0) == "fine-tuning-19700101000000");
}
