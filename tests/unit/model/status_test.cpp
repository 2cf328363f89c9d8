#include <catch2/catch.hpp>

#include <set>

#include "jgrid/model/status.hpp"

using namespace jgrid::model;
using S = JobStatus;

TEST_CASE("model::can_transition allows exactly the lifecycle table", "[model]") {
  const std::set<std::pair<S, S>> allowed = {
      {S::pending, S::queued},     {S::pending, S::rejected},  {S::pending, S::cancelled},
      {S::pending, S::failed},     {S::queued, S::assigned},   {S::queued, S::cancelled},
      {S::queued, S::failed},      {S::queued, S::rejected},   {S::assigned, S::starting},
      {S::assigned, S::queued},    {S::assigned, S::failed},   {S::assigned, S::cancelled},
      {S::assigned, S::rejected},  {S::starting, S::running},  {S::starting, S::queued},
      {S::starting, S::failed},    {S::starting, S::cancelled}, {S::starting, S::rejected},
      {S::running, S::completed},  {S::running, S::failed},    {S::running, S::cancelled},
      {S::running, S::queued},
  };
  for (S from : all_statuses())
    for (S to : all_statuses()) {
      INFO(to_string(from) << " -> " << to_string(to));
      CHECK(can_transition(from, to) == (allowed.count({from, to}) == 1));
    }
  CHECK(std::set<std::pair<S, S>>(allowed_transitions().begin(), allowed_transitions().end()) == allowed);
}

TEST_CASE("model::is_terminal statuses never transition", "[model]") {
  for (S status : all_statuses()) {
    bool terminal = status == S::completed || status == S::failed || status == S::rejected || status == S::cancelled;
    CHECK(is_terminal(status) == terminal);
    if (!terminal) continue;
    for (S to : all_statuses()) CHECK_FALSE(can_transition(status, to));
  }
}

TEST_CASE("model::every live status can be cancelled", "[model]") {
  for (S status : all_statuses())
    if (!is_terminal(status)) CHECK(can_transition(status, S::cancelled));
}

TEST_CASE("model::status and phase names round trip", "[model]") {
  CHECK(all_statuses().size() == 9);
  for (S status : all_statuses()) CHECK(parse_job_status(to_string(status)) == status);
  for (Phase phase : {Phase::queued, Phase::scheduling, Phase::provisioning, Phase::runtime_preparation,
                      Phase::workload_execution, Phase::finalizing, Phase::done})
    CHECK(parse_phase(to_string(phase)) == phase);
  CHECK(to_string(Phase::runtime_preparation) == "runtime_preparation");
  CHECK_FALSE(parse_job_status("Queued"));
  CHECK_FALSE(parse_phase("booting"));
}
