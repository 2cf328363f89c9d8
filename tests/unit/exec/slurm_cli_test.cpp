#include "exec/slurm_cli.hpp"

#include <catch2/catch.hpp>

using namespace jgrid::exec;

TEST_CASE("exec::parse_squeue_rows reads padded --Format columns and wait statuses", "[exec][slurm]") {
  // As squeue printed squeue_format() on the test cluster (widths shortened).
  std::string text =
      "12        |jgrid-job_01ABC     |RUNNING   |None      |n1        |0       \n"
      "13        |jgrid-job_01DEF     |PENDING   |Resources |          |0       \n"
      "14        |other               |FAILED    |NonZeroExitCode|n2    |768     \n"
      "15        |jgrid-job_01GHI     |CANCELLED by 0|None  |n1        |15      \n"
      "not a row\n"
      "x         |a|b|c|d|e\n";
  auto rows = parse_squeue_rows(text);
  REQUIRE(rows.size() == 4);
  CHECK(rows[0].id == "12");
  CHECK(rows[0].name == "jgrid-job_01ABC");
  CHECK(rows[0].state == "RUNNING");
  CHECK(rows[0].nodes == "n1");
  CHECK(rows[0].exit == "0:0");
  CHECK(rows[1].reason == "Resources");
  CHECK(rows[1].nodes.empty());
  CHECK(rows[2].exit == "3:0");
  CHECK(rows[3].state == "CANCELLED");
  CHECK(rows[3].exit == "0:15");
}

TEST_CASE("exec::parse_scontrol_job reads state, reason, exit code and nodes", "[exec][slurm]") {
  auto row = parse_scontrol_job(
      "JobId=1 JobName=jgrid-job_01 UserId=root(0) JobState=FAILED Reason=NonZeroExitCode Dependency=(null) "
      "ExitCode=3:0 DerivedExitCode=0:0 NodeList=n1 BatchHost=n1\n");
  REQUIRE(row);
  CHECK(row->id == "1");
  CHECK(row->name == "jgrid-job_01");
  CHECK(row->state == "FAILED");
  CHECK(row->reason == "NonZeroExitCode");
  CHECK(row->exit == "3:0");
  CHECK(row->nodes == "n1");
  auto pending = parse_scontrol_job("JobId=2 JobName=x JobState=PENDING Reason=Priority ExitCode=0:0 NodeList=(null)");
  REQUIRE(pending);
  CHECK(pending->nodes.empty());
  CHECK_FALSE(parse_scontrol_job("slurm_load_jobs error: Invalid job id specified"));
  CHECK_FALSE(parse_scontrol_job(""));
}
