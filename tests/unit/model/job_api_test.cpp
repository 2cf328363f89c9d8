#include <catch2/catch.hpp>

#include "jgrid/model/job.hpp"
#include "job_fixture.hpp"

using namespace jgrid::model;
using namespace jgrid::model::test;

namespace {

// Paths of every null in `value` whose key is not one docs/api.md allows to be null.
void collect_nulls(const Json& value, const std::string& where, std::vector<std::string>& out) {
  if (value.is_object()) {
    for (const auto& [key, item] : value.items()) {
      bool allowed = key == "exit_code" || key == "actual_cost_usd";
      if (item.is_null() && !allowed) out.push_back(where + "." + key);
      collect_nulls(item, where + "." + key, out);
    }
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (value[i].is_null()) out.push_back(where + "[" + std::to_string(i) + "]");
      collect_nulls(value[i], where + "[" + std::to_string(i) + "]", out);
    }
  }
}

std::vector<std::string> stray_nulls(const Json& value) {
  std::vector<std::string> out;
  collect_nulls(value, "$", out);
  return out;
}

}  // namespace

TEST_CASE("model::job_to_api has no stray nulls in any state or framing", "[model]") {
  Job running = failed_job();
  running.status = JobStatus::running;
  running.exit_code.reset();
  running.actual_cost_usd.reset();
  Job no_placement = queued_job();
  no_placement.spec.edit().echoed = {{"notes", nullptr}, {"template", "t"}};
  for (const Job& job : {queued_job(), running, failed_job(), no_placement})
    for (Framing framing : {Framing::plain, Framing::envelope}) {
      CHECK(stray_nulls(job_to_api(job, framing, k_t0 + 1000, 0)).empty());
      CHECK(stray_nulls(job_to_list_item(job, framing, k_t0 + 1000)).empty());
    }
}

TEST_CASE("model::job_to_api reports a queued job without placement-derived fields", "[model]") {
  Json api = job_to_api(queued_job(), Framing::plain, k_t0 + 2'500, 0);
  CHECK(api["job_id"] == "job_01TEST");
  CHECK(api["id"] == "job_01TEST");
  CHECK(api["status"] == "queued");
  CHECK(api["phase"] == api["execution_phase"]);
  CHECK(api["workload_type"] == "inference");
  CHECK(api["gpu_vendor"] == "amd");
  CHECK(api["created_at"] == "2026-09-21T14:13:20.000Z");
  CHECK(api["submitted_at"] == api["created_at"]);
  CHECK(api["queued_at"] == api["created_at"]);
  CHECK(api["wait_duration_seconds"] == 2.5);
  CHECK(api["exit_code"].is_null());
  CHECK(api["actual_cost_usd"].is_null());
  CHECK(api["billing"]["status"] == "estimated");
  CHECK(api["account_billing"]["lifetime_total_spent_usd"] == 0);
  CHECK(api["estimated_cost_usd"] == 0.4);
  CHECK(api["startup_diagnostics"]["command_spawned"] == false);
  for (const char* absent : {"failure", "delay_reason", "callback", "scheduling", "assigned_node_id", "provider",
                             "gpu", "hardware", "started_at", "completed_at", "status_reason", "status_message",
                             "image_digest", "timeout_seconds", "model_size_gb", "runtime"})
    CHECK_FALSE(api.contains(absent));
}

TEST_CASE("model::job_to_api lists environment names, never values", "[model]") {
  Json api = job_to_api(failed_job(), Framing::plain, k_t0, 0);
  CHECK(api["environment_keys"] == Json{"HF_TOKEN", "MODE"});
  CHECK_FALSE(api.contains("environment"));
  CHECK(api.dump().find("secret-value") == std::string::npos);
  CHECK(api.dump().find("\"tok\"") == std::string::npos);
}

TEST_CASE("model::job_to_api shows an AMD placement as gpu, hardware and scheduling", "[model]") {
  Json api = job_to_api(failed_job(), Framing::plain, k_t0, 0);
  CHECK(api["gpu"] == Json{{"vendor", "AMD"}, {"name", "MI300X"}, {"runtime_version", "ROCm 6.2"}, {"count", 1}});
  CHECK(api["hardware"]["gpu_vendor"] == "AMD");
  CHECK(api["hardware"]["gpu_name"] == "MI300X");
  CHECK(api["hardware"]["rocm_version"] == "ROCm 6.2");
  CHECK(api["hardware"]["gpu"] == api["gpu"]);
  CHECK(api["scheduling"]["node_id"] == "node_mi300x-east-1");
  CHECK(api["scheduling"]["provider"] == "simulated");
  CHECK(api["scheduling"]["region"] == "us-east");
  CHECK(api["scheduling"]["image"] == "rocm/vllm:latest");
  CHECK(api["scheduling"]["attempt"] == 2);
  CHECK(api["assigned_node_id"] == "node_mi300x-east-1");
  CHECK(api["provider"] == "simulated");
  CHECK(api["runtime"] == "rocm");
}

TEST_CASE("model::job_to_api leaves rocm_version out of NVIDIA hardware", "[model]") {
  Job job = failed_job();
  job.placement->gpu_vendor = "nvidia";
  job.placement->gpu_model = "H100";
  job.placement->runtime = "cuda";
  job.placement->runtime_version = "12.4";
  Json api = job_to_api(job, Framing::plain, k_t0, 0);
  CHECK(api["gpu"]["vendor"] == "NVIDIA");
  CHECK(api["gpu"]["runtime_version"] == "CUDA 12.4");
  CHECK_FALSE(api["hardware"].contains("rocm_version"));
}

TEST_CASE("model::job_to_api reports the end of a failed job", "[model]") {
  Json api = job_to_api(failed_job(), Framing::plain, k_t0 + 999'999, 0);
  CHECK(api["status_reason"] == "nonzero exit");
  CHECK(api["status_message"] == "The workload exited with code 3.");
  CHECK(api["failure"] == Json{{"code", "NONZERO_EXIT"}, {"summary", "exit code 3"}});
  CHECK(api["exit_code"] == 3);
  CHECK(api["timed_out"] == true);
  CHECK(api["attempts"] == 2);
  CHECK(api["wait_duration_seconds"] == 5.0);
  CHECK(api["started_at"] == "2026-09-21T14:13:25.000Z");
  CHECK(api["completed_at"] == "2026-09-21T14:14:25.000Z");
  CHECK(api["actual_cost_usd"] == 0.035);
  CHECK(api["billing"] == Json{{"status", "final"}, {"actual_cost_usd", 0.035}});
  CHECK(api["delay_reason"]["code"] == "CAPACITY_UNAVAILABLE");
  CHECK(api["delayed_start"] == true);
  CHECK(api["callback"] == Json{{"url", "http://cb.test/"}, {"status", "failed"}, {"attempts", 8},
                                {"last_error", "HTTP 500"}});
  CHECK(api["startup_diagnostics"]["workload_logs_available"] == true);
  CHECK(api["image_digest"] == "sha256:abc");
}

TEST_CASE("model::job_to_api omits failure unless the job failed", "[model]") {
  Job job = failed_job();
  job.status = JobStatus::cancelled;
  CHECK_FALSE(job_to_api(job, Framing::plain, k_t0, 0).contains("failure"));
}

TEST_CASE("model::job_to_api frames estimated cost per route family", "[model]") {
  Job job = queued_job();
  CHECK(job_to_api(job, Framing::plain, k_t0, 0)["estimated_cost_usd"] == 0.4);
  Json range = job_to_api(job, Framing::envelope, k_t0, 0)["estimated_cost_usd"];
  CHECK(range["min"].get<double>() == Approx(0.2));
  CHECK(range["max"].get<double>() == Approx(0.6));
}

TEST_CASE("model::job_to_api reports what the workspace spent, rounded to cents", "[model]") {
  for (auto framing : {Framing::plain, Framing::envelope}) {
    CHECK(job_to_api(failed_job(), framing, k_t0, 1.2349)["account_billing"] ==
          Json{{"lifetime_total_spent_usd", 1.23}});
    CHECK(job_to_api(failed_job(), framing, k_t0, 0.1 + 0.2)["account_billing"]["lifetime_total_spent_usd"] == 0.3);
  }
}

TEST_CASE("model::job_to_api echoes stored fields and a pending callback", "[model]") {
  Job job = queued_job();
  job.spec.edit().echoed = {{"template", "vllm"}, {"registry_credential_id", "reg_1"}};
  job.spec.edit().callback = CallbackSpec{"http://cb.test/x", "secret-token", Json::object()};
  Json api = job_to_api(job, Framing::plain, k_t0, 0);
  CHECK(api["template"] == "vllm");
  CHECK(api["registry_credential_id"] == "reg_1");
  CHECK(api["callback"] == Json{{"url", "http://cb.test/x"}, {"status", "pending"}, {"attempts", 0}});
  CHECK(api.dump().find("secret-token") == std::string::npos);
}

TEST_CASE("model::job_to_list_item carries the list fields", "[model]") {
  Json item = job_to_list_item(failed_job(), Framing::plain, k_t0);
  for (const char* key : {"job_id", "id", "name", "status", "workload_type", "gpu_vendor", "created_at",
                          "updated_at", "metadata", "phase", "image", "completed_at"})
    CHECK(item.contains(key));
  CHECK(item["gpu_vendor"] == "amd");
  CHECK_FALSE(item.contains("environment_keys"));
  CHECK_FALSE(job_to_list_item(queued_job(), Framing::plain, k_t0).contains("completed_at"));
}

TEST_CASE("model::job_to_api_json replaces invalid UTF-8 and splices the screening text", "[model]") {
  Job running = failed_job();
  running.status = JobStatus::running;
  running.spec.edit().name = "bad \xff byte";
  for (const Job& job : {queued_job(), running, failed_job()})
    for (Framing framing : {Framing::plain, Framing::envelope}) {
      std::string text = job_to_api_json(job, framing, k_t0 + 1000, 0);
      Json api = Json::parse(text);
      CHECK(api == job_to_api(job, framing, k_t0 + 1000, 0));
      CHECK(api["screening"] == Json::parse(*job.screening));
      CHECK(text.find("\"screening\":" + *job.screening) != std::string::npos);
      CHECK(api["name"] == (job.status == JobStatus::running ? "bad \xef\xbf\xbd byte" : job.spec->name));
    }
}
