#include <catch2/catch.hpp>

#include "job_fixture.hpp"

using namespace jgrid::model;
using namespace jgrid::model::test;

namespace {

void check_same_document(const Job& job) {
  Json expected = job_state_to_doc(job);
  CHECK(Json::parse(job_state_json(job, true)) == expected);
  expected.erase("stdout_tail");
  expected.erase("stderr_tail");
  CHECK(Json::parse(job_state_json(job, false)) == expected);
}

}  // namespace

TEST_CASE("model::job_state_json writes the document of job_state_to_doc, optionals unset", "[model]") {
  check_same_document(queued_job());
}

TEST_CASE("model::job_state_json writes the document of job_state_to_doc, every optional set", "[model]") {
  check_same_document(failed_job());
}

TEST_CASE("model::job_state_json escapes text and keeps numbers exact", "[model]") {
  Job job = failed_job();
  job.status_message = "quote \" backslash \\ tab \t newline \n bell \x07 é ✓";
  job.failure->summary = std::string("invalid \xff byte");
  job.estimated_cost_usd = 0.1 + 0.2;
  job.placement->price_per_gpu_hour = 3.0;
  job.placement->gpu_indices = {0, 3, 7};
  job.created_ms = 9'007'199'254'740'993;  // beyond a double's exact integers
  Json back = Json::parse(job_state_json(job, true));
  CHECK(back["status_message"] == job.status_message);
  CHECK(back["failure"]["summary"] == "invalid \xEF\xBF\xBD byte");
  CHECK(back["estimated_cost_usd"].get<double>() == job.estimated_cost_usd);
  CHECK(back["placement"]["price_per_gpu_hour"].is_number_float());
  CHECK(back["placement"]["gpu_indices"] == Json({0, 3, 7}));
  CHECK(back["created_ms"].get<std::int64_t>() == job.created_ms);
  job.failure->summary = "x";
  check_same_document(job);
}

TEST_CASE("model::spec_json writes the document of spec_to_doc", "[model]") {
  Job job = failed_job();  // a callback, environment, labels
  CHECK(Json::parse(spec_json(job.spec)) == spec_to_doc(job.spec));
  JobSpec& spec = job.spec.edit();
  spec.min_vram_gb = 48;
  spec.model_size_gb = 13.5;
  spec.disk_gb.reset();
  spec.timeout_seconds = 3600;
  spec.constraints = {{"regions", {"us-east"}}, {"max_price_per_hour", 2.5}};
  spec.metadata = {{"team", "ml"}, {"run", 7}};
  spec.echoed = {{"template", "t"}, {"notes", nullptr}};
  spec.sim = {{"duration_s", 1.5}, {"exit_code", 3}};
  spec.callback.reset();
  spec.command = {"python", "-c", "print(\"quoted\\tand tabbed\")"};
  CHECK(Json::parse(spec_json(spec)) == spec_to_doc(spec));
  spec.name = "bad \xff byte";
  CHECK(Json::parse(spec_json(spec))["name"] == "bad \xef\xbf\xbd byte");
}
