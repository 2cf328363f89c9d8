#include "jgrid/exec/slurm_states.hpp"

#include <array>
#include <string_view>

namespace jgrid::exec {
namespace {

constexpr std::array<std::string_view, 7> k_active_states{"PENDING",  "CONFIGURING", "RUNNING",  "COMPLETING",
                                                          "REQUEUED", "RESIZING",    "SUSPENDED"};

bool starts_with_any(const std::string& text, std::initializer_list<std::string_view> prefixes) {
  for (auto prefix : prefixes)
    if (text.rfind(prefix, 0) == 0) return true;
  return false;
}

RunOutcome failed_with(std::string code, std::optional<int> exit_code, std::string message) {
  RunOutcome outcome;
  outcome.failure_code = std::move(code);
  outcome.exit_code = exit_code;
  outcome.message = std::move(message);
  return outcome;
}

RunOutcome node_ended_it(std::string reason, bool preempted) {
  RunOutcome outcome;
  outcome.lost_reason = std::move(reason);
  outcome.preempted = preempted;
  outcome.message = outcome.lost_reason;
  return outcome;
}

}  // namespace

std::optional<int> slurm_exit_code(const std::string& exit_signal) {
  auto colon = exit_signal.find(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == exit_signal.size()) return std::nullopt;
  try {
    std::size_t used_status = 0, used_signal = 0;
    int status = std::stoi(exit_signal.substr(0, colon), &used_status);
    int signal = std::stoi(exit_signal.substr(colon + 1), &used_signal);
    if (used_status != colon || used_signal != exit_signal.size() - colon - 1 || status < 0 || signal < 0)
      return std::nullopt;
    return signal > 0 ? 128 + signal : status;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

bool slurm_job_active(const std::string& state) {
  for (auto active : k_active_states)
    if (state == active) return true;
  return false;
}

bool slurm_job_on_node(const std::string& state) {
  return state == "RUNNING" || state == "COMPLETING" || state == "CONFIGURING";
}

RunOutcome slurm_outcome(const std::string& state, const std::string& exit_signal, int slurm_job_id) {
  std::string job = "Slurm job " + std::to_string(slurm_job_id);
  auto exit_code = slurm_exit_code(exit_signal);
  if (state == "COMPLETED" && exit_code == 0) {
    RunOutcome outcome;
    outcome.exit_code = 0;
    outcome.message = job + " completed";
    return outcome;
  }
  if (state == "COMPLETED" || state == "FAILED")
    return failed_with("NONZERO_EXIT", exit_code, job + " failed with exit code " + exit_signal);
  if (state == "TIMEOUT" || state == "DEADLINE") {
    auto outcome = failed_with("TIMED_OUT", exit_code, job + " reached its time limit (" + state + ")");
    outcome.timed_out = true;
    return outcome;
  }
  if (state == "OUT_OF_MEMORY") return failed_with("OOM", exit_code, job + " ran out of memory");
  if (state == "NODE_FAIL" || state == "BOOT_FAIL") return node_ended_it(job + ": its node failed (" + state + ")", false);
  if (state == "PREEMPTED") return node_ended_it(job + " was preempted by Slurm", true);
  if (state == "CANCELLED")
    return failed_with("CANCELLED_BY_SCHEDULER", exit_code, job + " was cancelled in Slurm (scancel by someone else, or an administrator)");
  return failed_with("INTERNAL", exit_code, job + " ended in a state this grid does not know: " + state);
}

std::string slurm_delay_code(const std::string& reason) {
  if (starts_with_any(reason, {"Resources", "ReqNodeNotAvail", "Nodes", "PartitionNodeLimit", "NodeDown"}))
    return "CAPACITY_UNAVAILABLE";
  return "QUEUE_DELAYED";
}

}  // namespace jgrid::exec
