// The tracker: one squeue per poll for every run, whatever their number.
#include <fstream>

#include "exec/slurm_executor_impl.hpp"
#include "exec/slurm_script.hpp"
#include "jgrid/exec/slurm_states.hpp"
#include "jgrid/util/log.hpp"
#include "jgrid/util/strings.hpp"

namespace jgrid::exec {
namespace {

std::string first_line(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return util::trim(line);
}

std::string last_line(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line))
    if (!util::trim(line).empty()) last = util::trim(line);
  return last;
}

// "CANCELLED by 0" → "CANCELLED".
std::string state_word(const std::string& state) { return state.substr(0, state.find(' ')); }

int slurm_number(const std::string& id) { return static_cast<int>(util::parse_int(id).value_or(0)); }

}  // namespace

// Markers are looked at every k_marker_tick, squeue every options.poll:
// a run's start and its container's exit are seen as soon as the script
// writes them, without waiting for Slurm's view of the batch job.
void SlurmExecutor::track_loop() {
  auto next_poll = std::chrono::steady_clock::now();
  while (sleep_for(k_marker_tick)) {
    auto runs = tracked();
    if (runs.empty()) continue;
    for (const auto& run : runs) check_markers(*run);
    if (std::chrono::steady_clock::now() < next_poll) continue;
    next_poll = std::chrono::steady_clock::now() + m_options.poll;
    poll(tracked());
  }
}

// The container exited (the `exit` marker holds its code): the job ends
// now; the script only removes the container after that.
void SlurmExecutor::check_markers(SlurmRun& run) {
  auto state = slurm_state_dir(run.request.workspace_dir);
  if (!run.running_reported && std::filesystem::exists(state / "running"))
    report_running(run, SlurmJobRow{run.slurm_id, "", "RUNNING", "", run.request.node.name, ""});
  if (!std::filesystem::exists(state / "exit")) return;
  std::string code = first_line(state / "exit");
  auto exit_code = util::parse_int(code);
  if (!exit_code) return;  // being written
  report_running(run, SlurmJobRow{run.slurm_id, "", "RUNNING", "", run.request.node.name, ""});
  run.finish_output();
  end(run, slurm_outcome(*exit_code == 0 ? "COMPLETED" : "FAILED", code + ":0", slurm_number(run.slurm_id)));
}

void SlurmExecutor::poll(const std::vector<RunPtr>& runs) {
  auto rows = slurm_queue();
  if (!rows) {
    util::log(util::LogLevel::warn, "slurm", rows.error().message);
    return;
  }
  std::map<std::string, const SlurmJobRow*> by_id;
  for (const auto& row : *rows) by_id[row.id] = &row;
  for (const auto& run : runs) {
    auto it = by_id.find(run->slurm_id);
    if (it != by_id.end() && it->second->name == slurm_job_name(run->job_id())) observe(*run, *it->second);
    else observe_gone(*run);
  }
}

void SlurmExecutor::observe(SlurmRun& run, const SlurmJobRow& row) {
  std::string state = state_word(row.state);
  {
    std::lock_guard lock(m_mutex);
    run.slurm_state = state;
  }
  if (slurm_job_active(state)) return observe_active(run, row);
  if (std::filesystem::exists(slurm_state_dir(run.request.workspace_dir) / "running")) report_running(run, row);
  run.finish_output();
  end(run, script_failure(run, slurm_outcome(state, row.exit, slurm_number(run.slurm_id))));
}

void SlurmExecutor::observe_active(SlurmRun& run, const SlurmJobRow& row) {
  std::string state = state_word(row.state);
  if (state == "PENDING") {
    if (row.reason.empty() || row.reason == "None" || row.reason == run.held_reason) return;
    run.held_reason = row.reason;
    run.report([&](RunSink& sink) {
      sink.held(run.job_id(), slurm_delay_code(row.reason),
                "Slurm job " + run.slurm_id + " is pending: " + row.reason,
                {{"slurm_job_id", run.slurm_id}, {"slurm_reason", row.reason}});
    });
    return;
  }
  if (state == "RUNNING" || state == "COMPLETING" || state == "CONFIGURING") report_running(run, row);
}

// job.container_starting once Slurm runs the script; job.running once the
// script left its `running` marker (the container exists), and from then
// on its output is followed.
void SlurmExecutor::report_running(SlurmRun& run, const SlurmJobRow& row) {
  const std::string node = row.nodes.empty() ? run.request.node.name : row.nodes;
  if (!run.starting_reported) {
    run.starting_reported = true;
    run.held_reason.clear();
    run.report([&](RunSink& sink) {
      sink.step(run.job_id(), model::Phase::runtime_preparation, "job.container_starting",
                "Slurm job " + run.slurm_id + " started on " + node + ": starting the container with " +
                    m_options.engine,
                {{"slurm_job_id", run.slurm_id}, {"node", node}, {"engine", m_options.engine}});
    });
  }
  auto marker = slurm_state_dir(run.request.workspace_dir) / "running";
  if (run.running_reported || !std::filesystem::exists(marker)) return;
  run.running_reported = true;
  run.report([&](RunSink& sink) {
    sink.step(run.job_id(), model::Phase::workload_execution, "job.running",
              "Container running on " + node + " (Slurm job " + run.slurm_id + ")",
              {{"slurm_job_id", run.slurm_id}, {"node", node}});
  });
  run.follow_output();
}

// Not in squeue: ended and purged, or vanished. scontrol may still know
// it; else the script's exit marker tells how the container ended.
void SlurmExecutor::observe_gone(SlurmRun& run) {
  auto known = slurm_job(run.slurm_id);
  if (!known) return;  // Slurm does not answer: ask again next poll
  // The same id on another job: Slurm lost its state and numbers from 1 again.
  if (*known && (*known)->name == slurm_job_name(run.job_id())) return observe(run, **known);
  auto exit_marker = slurm_state_dir(run.request.workspace_dir) / "exit";
  if (std::filesystem::exists(exit_marker)) {
    SlurmJobRow row{run.slurm_id, "", "COMPLETED", "", "", first_line(exit_marker) + ":0"};
    if (row.exit != "0:0") row.state = "FAILED";
    return observe(run, row);
  }
  RunOutcome outcome;
  outcome.failure_code = "NODE_LOST";
  outcome.message = "Slurm job " + run.slurm_id + " vanished: Slurm no longer knows it and it left no exit status";
  end(run, outcome);
}

// A script that ended before its container ran: what it printed says why.
RunOutcome SlurmExecutor::script_failure(SlurmRun& run, RunOutcome outcome) {
  auto state = slurm_state_dir(run.request.workspace_dir);
  if (outcome.failure_code != "NONZERO_EXIT" || std::filesystem::exists(state / "running")) return outcome;
  std::string said = last_line(slurm_script_output(run.request.workspace_dir));
  outcome.failure_code = "START_FAILED";
  outcome.exit_code.reset();
  outcome.message = "Slurm job " + run.slurm_id + " could not start the container" + (said.empty() ? "" : ": " + said);
  return outcome;
}

void SlurmExecutor::end(SlurmRun& run, RunOutcome outcome) {
  forget(run.job_id());
  std::string digest = first_line(slurm_state_dir(run.request.workspace_dir) / "digest");
  run.report([&](RunSink& sink) {
    if (!digest.empty()) sink.image_digest(run.job_id(), digest);
    sink.finished(run.job_id(), outcome);
  });
}

}  // namespace jgrid::exec
