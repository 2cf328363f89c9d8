#include "jgrid/exec/slurm_states.hpp"

#include <catch2/catch.hpp>

using namespace jgrid::exec;

TEST_CASE("exec::slurm_exit_code reads exit:signal", "[exec][slurm]") {
  CHECK(slurm_exit_code("0:0") == 0);
  CHECK(slurm_exit_code("3:0") == 3);
  CHECK(slurm_exit_code("0:9") == 137);
  CHECK(slurm_exit_code("0:15") == 143);
  for (const char* bad : {"", "3", ":0", "3:", "a:0", "3:x", "3:0:1", "-1:0", "3 :0"}) {
    INFO(bad);
    CHECK_FALSE(slurm_exit_code(bad));
  }
}

TEST_CASE("exec::slurm_job_active knows the states Slurm still owns", "[exec][slurm]") {
  for (const char* state : {"PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "REQUEUED", "RESIZING", "SUSPENDED"})
    CHECK(slurm_job_active(state));
  for (const char* state : {"COMPLETED", "FAILED", "TIMEOUT", "CANCELLED", "NODE_FAIL", "PREEMPTED", "OUT_OF_MEMORY", ""})
    CHECK_FALSE(slurm_job_active(state));
}

TEST_CASE("exec::slurm_outcome maps every end state", "[exec][slurm]") {
  auto done = slurm_outcome("COMPLETED", "0:0", 7);
  CHECK(done.failure_code.empty());
  CHECK(done.exit_code == 0);
  auto failed = slurm_outcome("FAILED", "3:0", 7);
  CHECK(failed.failure_code == "NONZERO_EXIT");
  CHECK(failed.exit_code == 3);
  CHECK(failed.message.find("Slurm job 7") != std::string::npos);
  CHECK(slurm_outcome("COMPLETED", "2:0", 7).failure_code == "NONZERO_EXIT");
  auto timeout = slurm_outcome("TIMEOUT", "0:15", 7);
  CHECK(timeout.failure_code == "TIMED_OUT");
  CHECK(timeout.timed_out);
  CHECK(slurm_outcome("OUT_OF_MEMORY", "0:9", 7).failure_code == "OOM");
  auto lost = slurm_outcome("NODE_FAIL", "0:0", 7);
  CHECK(lost.failure_code.empty());
  CHECK_FALSE(lost.lost_reason.empty());
  CHECK_FALSE(lost.preempted);
  auto preempted = slurm_outcome("PREEMPTED", "0:15", 7);
  CHECK(preempted.preempted);
  CHECK_FALSE(preempted.lost_reason.empty());
  CHECK(slurm_outcome("CANCELLED", "0:15", 7).failure_code == "CANCELLED_BY_SCHEDULER");
  auto odd = slurm_outcome("SPECIAL_EXIT", "0:0", 7);
  CHECK(odd.failure_code == "INTERNAL");
  CHECK(odd.message.find("SPECIAL_EXIT") != std::string::npos);
}

TEST_CASE("exec::slurm_delay_code maps pending reasons", "[exec][slurm]") {
  CHECK(slurm_delay_code("Resources") == "CAPACITY_UNAVAILABLE");
  CHECK(slurm_delay_code("ReqNodeNotAvail, UnavailableNodes:n2") == "CAPACITY_UNAVAILABLE");
  CHECK(slurm_delay_code("Priority") == "QUEUE_DELAYED");
  CHECK(slurm_delay_code("QOSMaxGRESPerUser") == "QUEUE_DELAYED");
  CHECK(slurm_delay_code("BeginTime") == "QUEUE_DELAYED");
  CHECK(slurm_delay_code("JobHeldAdmin") == "QUEUE_DELAYED");
}

TEST_CASE("exec::slurm_job_on_node is true while the batch job holds its node", "[exec][slurm]") {
  for (const char* state : {"CONFIGURING", "RUNNING", "COMPLETING"}) CHECK(slurm_job_on_node(state));
  for (const char* state : {"PENDING", "SUSPENDED", "COMPLETED", "FAILED", ""}) CHECK_FALSE(slurm_job_on_node(state));
}
