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
