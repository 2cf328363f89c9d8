// The tracker: one squeue per poll for every run, whatever their number.
#include <optional>

#include "exec/slurm_executor_impl.hpp"
#include "exec/slurm_script.hpp"
#include "jgrid/exec/slurm_states.hpp"
#include "jgrid/util/files.hpp"
#include "jgrid/util/log.hpp"
#include "jgrid/util/strings.hpp"

namespace jgrid::exec {
namespace {

// The first line of a small file the script wrote, trimmed; "" when absent.
std::string first_line(const std::filesystem::path& path) {
  auto text = util::read_file(path);
  return text ? util::trim(text->substr(0, text->find('\n'))) : "";
}

std::string last_line_in(const std::filesystem::path& path) {
  auto text = util::read_file(path);
  std::string last;
  if (text)
    for (const auto& line : util::split(*text, '\n'))
      if (!util::trim(line).empty()) last = util::trim(line);
  return last;
}

int slurm_number(const std::string& id) { return static_cast<int>(util::parse_int(id).value_or(0)); }

bool has_marker(const SlurmRun& run, const char* name) {
  return std::filesystem::exists(slurm_state_dir(run.request.workspace_dir) / name);
}

// The container's exit code from the `exit` marker; nullopt while there is
// none (or it is still being written).
std::optional<int> exit_marker(const SlurmRun& run) {
  return util::parse_int(first_line(slurm_state_dir(run.request.workspace_dir) / "exit"));
}

}  // namespace

// Markers are looked at every k_marker_tick, squeue as next_squeue_at()
// says: a run's start and its container's exit are seen as soon as the
// script writes them, without waiting for Slurm's view of the batch job.
void SlurmExecutor::track_loop() {
  SteadyTime last_poll{};
  while (sleep_for(k_marker_tick)) {
    auto runs = tracked();
    if (runs.empty()) continue;
    std::size_t not_started = 0;
    for (const auto& run : runs) {
      check_markers(*run);
      if (!run->started_seen) ++not_started;
    }
    auto now = std::chrono::steady_clock::now();
    if (now < next_squeue_at(last_poll, not_started, m_options)) continue;
    last_poll = now;
    poll(tracked());
  }
}

// The script leaves `started` before anything else, so a run without it
// has nothing more to look at. The container exited (the `exit` marker
// holds its code): the job ends now; the script only removes the
// container after that.
void SlurmExecutor::check_markers(SlurmRun& run) {
  if (!run.started_seen) {
    if (!has_marker(run, "started")) return;
    run.started_seen = true;
    report_starting(run, run.request.node.name);
  }
  if (!run.running_reported && has_marker(run, "running")) report_running(run, run.request.node.name);
  auto code = exit_marker(run);
  if (!code) return;
  const std::string exit_signal = std::to_string(*code) + ":0";
  finish(run, slurm_outcome(*code == 0 ? "COMPLETED" : "FAILED", exit_signal, slurm_number(run.slurm_id)));
}

void SlurmExecutor::poll(const std::vector<RunPtr>& runs) {
  auto rows = slurm_queue();
  if (!rows) {
    util::log(util::LogLevel::warn, "slurm", rows.error().message);
    return;
  }
  keep_queue(*rows);
  std::map<std::string, const SlurmJobRow*> by_id;
  for (const auto& row : *rows) by_id[row.id] = &row;
  for (const auto& run : runs) {
    auto it = by_id.find(run->slurm_id);
    if (it != by_id.end() && it->second->name == slurm_job_name(run->job_id())) observe(*run, *it->second);
    else observe_gone(*run);
  }
}

// For the node watcher (recent_queue()).
void SlurmExecutor::keep_queue(const std::vector<SlurmJobRow>& rows) {
  std::lock_guard lock(m_mutex);
  m_queue = rows;
  m_queue_at = std::chrono::steady_clock::now();
}

void SlurmExecutor::observe(SlurmRun& run, const SlurmJobRow& row) {
  if (slurm_job_active(row.state)) return observe_active(run, row);
  finish(run, script_failure(run, slurm_outcome(row.state, row.exit, slurm_number(run.slurm_id))));
}

// On its node, the script has started even if its marker is not there yet
// (a script of an earlier version writes none).
void SlurmExecutor::observe_active(SlurmRun& run, const SlurmJobRow& row) {
  if (slurm_job_on_node(row.state)) {
    run.started_seen = true;
    return report_running(run, row.nodes.empty() ? run.request.node.name : row.nodes);
  }
  if (row.state != "PENDING" || row.reason.empty() || row.reason == "None" || row.reason == run.held_reason) return;
  run.held_reason = row.reason;
  run.report([&](RunSink& sink) {
    sink.held(run.job_id(), slurm_delay_code(row.reason), "Slurm job " + run.slurm_id + " is pending: " + row.reason,
              {{"slurm_job_id", run.slurm_id}, {"slurm_reason", row.reason}});
  });
}

// job.container_starting once the script started (its `started` marker,
// or squeue saying the batch job runs).
void SlurmExecutor::report_starting(SlurmRun& run, const std::string& node) {
  if (run.starting_reported) return;
  run.starting_reported = true;
  run.held_reason.clear();
  run.report([&](RunSink& sink) {
    sink.step(run.job_id(), model::Phase::runtime_preparation, "job.container_starting",
              "Slurm job " + run.slurm_id + " started on " + node + ": starting the container with " + m_options.engine,
              {{"slurm_job_id", run.slurm_id}, {"node", node}, {"engine", m_options.engine}});
  });
}

// job.running once the script left its `running` marker (the container
// exists), and from then on its output is followed.
void SlurmExecutor::report_running(SlurmRun& run, const std::string& node) {
  report_starting(run, node);
  if (run.running_reported || !has_marker(run, "running")) return;
  run.running_reported = true;
  run.report([&](RunSink& sink) {
    sink.step(run.job_id(), model::Phase::workload_execution, "job.running",
              "Container running on " + node + " (Slurm job " + run.slurm_id + ")",
              {{"slurm_job_id", run.slurm_id}, {"node", node}});
  });
  run.follow_output();
}

// Not in squeue: ended and purged, or vanished. scontrol may still know
// it; else an `exit` marker means the container ended (check_markers ends
// the job at its next look), and no marker means the run is lost.
void SlurmExecutor::observe_gone(SlurmRun& run) {
  auto known = slurm_job(run.slurm_id);
  if (!known) return;  // Slurm does not answer: ask again next poll
  // The same id on another job: Slurm lost its state and numbers from 1 again.
  if (*known && (*known)->name == slurm_job_name(run.job_id())) return observe(run, **known);
  if (exit_marker(run)) {
    run.started_seen = true;  // so that check_markers reads the marker
    return;
  }
  RunOutcome outcome;
  outcome.failure_code = "NODE_LOST";
  outcome.message = "Slurm job " + run.slurm_id + " vanished: Slurm no longer knows it and it left no exit status";
  end(run, outcome);
}

// A script that ended before its container ran: what it printed says why.
RunOutcome SlurmExecutor::script_failure(SlurmRun& run, RunOutcome outcome) {
  if (outcome.failure_code != "NONZERO_EXIT" || has_marker(run, "running")) return outcome;
  std::string said = last_line_in(slurm_script_output(run.request.workspace_dir));
  outcome.failure_code = "START_FAILED";
  outcome.exit_code.reset();
  outcome.message = "Slurm job " + run.slurm_id + " could not start the container" + (said.empty() ? "" : ": " + said);
  return outcome;
}

// The end of a run that got as far as Slurm's own end: its steps and all
// of its output first.
void SlurmExecutor::finish(SlurmRun& run, RunOutcome outcome) {
  if (has_marker(run, "running")) report_running(run, run.request.node.name);
  run.finish_output();
  end(run, std::move(outcome));
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
