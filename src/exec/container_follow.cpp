// The running half of a ContainerRun: output, exit, timeout, removal.
#include <algorithm>
#include <cmath>

#include "exec/container_engine.hpp"
#include "exec/container_run.hpp"
#include "jgrid/util/log.hpp"
#include "jgrid/util/saturating.hpp"
#include "jgrid/util/strings.hpp"

namespace jgrid::exec {
namespace {

constexpr std::chrono::milliseconds k_max_poll{50};
constexpr std::chrono::seconds k_log_drain{5};
constexpr std::chrono::minutes k_command_timeout{2};
constexpr int k_sigkill_exit = 137;

// Real time until a clock deadline, capped so that stops are noticed.
std::chrono::milliseconds poll_for(std::optional<std::int64_t> deadline_ms, const util::Clock& clock) {
  if (!deadline_ms) return k_max_poll;
  double scale = clock.scale() > 0 && std::isfinite(clock.scale()) ? clock.scale() : 1.0;
  double ahead_ms = static_cast<double>(util::saturating_sub(*deadline_ms, clock.now_ms()));
  auto real_ms = util::saturated_int64(std::ceil(ahead_ms / scale));
  return std::clamp(std::chrono::milliseconds(real_ms), std::chrono::milliseconds(1), k_max_poll);
}

std::string format_seconds(double seconds) {
  auto whole = static_cast<long long>(seconds);
  return whole == seconds ? std::to_string(whole) + "s" : std::to_string(seconds) + "s";
}

}  // namespace

// Counts a line read and says whether it is one of those to skip (stored
// before a restart).
bool ContainerRun::skip_line(const std::string& stream) {
  bool err = stream == "stderr";
  ++(err ? m_read.stderr_lines : m_read.stdout_lines);
  std::size_t& skip = err ? m_skip.stderr_lines : m_skip.stdout_lines;
  if (skip == 0) return false;
  --skip;
  return true;
}

void ContainerRun::on_log_line(const std::string& stream, const std::string& line) {
  ++m_lines_seen;
  if (!skip_line(stream)) report([&](RunSink& sink) { sink.output(job_id(), stream, line); });
}

void ContainerRun::on_log_lines(std::vector<LogLine>& lines) {
  m_lines_seen += lines.size();
  auto skipped = std::remove_if(lines.begin(), lines.end(), [&](const LogLine& line) { return skip_line(line.stream); });
  lines.erase(skipped, lines.end());
  if (!lines.empty()) report([&](RunSink& sink) { sink.output_lines(job_id(), lines); });
}

RunOutcome ContainerRun::follow() {
  std::unique_ptr<LogFileFollower> file = m_log_file ? follow_log_file() : nullptr;
  std::unique_ptr<StreamedProcess> logs = m_log_file ? nullptr : follow_engine_logs();
  std::string wait_out, wait_err;
  auto waiter = StreamedProcess::start(
      engine_argv({"wait", m_name}),
      [&](const std::string& stream, const std::string& line) { (stream == "stdout" ? wait_out : wait_err) = line; });
  if (!waiter.ok())
    return RunOutcome{std::nullopt, false, "INTERNAL", "cannot wait for " + m_name + ": " + waiter.error().message};
  bool timed_out = false;
  std::optional<int> waited = wait_for_exit(*waiter.value(), timed_out);
  if (stopping()) return RunOutcome{};
  end_of_output(file.get(), logs.get(), waited == 0);
  if (stopping()) return RunOutcome{};
  auto parsed = waited == 0 ? util::parse_int(util::trim(wait_out)) : std::nullopt;
  std::optional<int> exit_code;
  if (parsed) exit_code = static_cast<int>(*parsed);
  return outcome_of(exit_code, timed_out, wait_err.empty() ? "exit " + std::to_string(waited.value_or(-1)) : wait_err);
}

std::unique_ptr<LogFileFollower> ContainerRun::follow_log_file() {
  return std::make_unique<LogFileFollower>(*m_log_file, [this](std::vector<LogLine>& lines) { on_log_lines(lines); });
}

std::unique_ptr<StreamedProcess> ContainerRun::follow_engine_logs() {
  auto logs =
      StreamedProcess::start(engine_argv({"logs", "-f", m_name}),
                             [this](const std::string& stream, const std::string& line) { on_log_line(stream, line); });
  if (logs.ok()) return std::move(logs).value();
  report([&](RunSink& sink) {
    sink.output(job_id(), "stderr", "jgrid: cannot follow output: " + logs.error().message);
  });
  return nullptr;
}

// The container has ended (`exited`: `wait` said so): what is left of its output.
void ContainerRun::end_of_output(LogFileFollower* file, StreamedProcess* logs, bool exited) {
  if (file) {
    std::string error = file->finish();  // after `wait` the file is whole
    if (!error.empty())
      report([&](RunSink& sink) { sink.output(job_id(), "stderr", "jgrid: cannot follow output: " + error); });
    return;
  }
  if (logs) drain(*logs);
  if (exited) catch_up_logs();
}

// `logs -f` may stop following as soon as the container exits, before it has
// relayed everything the container wrote: once it exited, read its whole log
// once more and deliver only the lines the follower did not.
void ContainerRun::catch_up_logs() {
  m_skip = m_read;
  auto logs =
      StreamedProcess::start(engine_argv({"logs", m_name}),
                             [this](const std::string& stream, const std::string& line) { on_log_line(stream, line); });
  if (logs.ok()) drain(*logs.value());
}

// A log reader may lag far behind a chatty container: wait while it still
// delivers, give up only after k_log_drain without a line (or on a stop).
void ContainerRun::drain(StreamedProcess& logs) {
  for (std::size_t seen = m_lines_seen.load(); !logs.wait_done(k_log_drain); seen = m_lines_seen.load())
    if (m_lines_seen.load() == seen || stopping()) {
      logs.kill();
      return;
    }
}

// The exit status of `wait` itself once it ended; nullopt when a stop came first.
std::optional<int> ContainerRun::wait_for_exit(StreamedProcess& waiter, bool& timed_out) {
  std::optional<std::int64_t> deadline;
  if (auto seconds = m_request.job.spec->timeout_seconds) {
    std::int64_t from = m_mode == Mode::start ? m_running_at_ms : m_request.job.started_ms.value_or(m_clock->now_ms());
    deadline = util::saturating_add(from, util::seconds_to_ms_saturated(*seconds));
  }
  while (!waiter.wait_done(poll_for(timed_out ? std::nullopt : deadline, *m_clock))) {
    if (stopping()) return std::nullopt;
    if (deadline && !timed_out && m_clock->now_ms() >= *deadline) {
      timed_out = true;
      stop_container();
    }
  }
  return waiter.exit_code();
}

RunOutcome ContainerRun::outcome_of(std::optional<int> exit_code, bool timed_out, const std::string& wait_error) {
  if (!exit_code) {
    return RunOutcome{
        std::nullopt, timed_out, "NODE_LOST",
        "lost container " + m_name + " of " + job_id() + ": " + engine_kind(m_options.engine) + " wait: " + wait_error};
  }
  bool oom = *exit_code == k_sigkill_exit && !timed_out && oom_killed();
  RunOutcome outcome{exit_code, timed_out, "", "workload exited with code " + std::to_string(*exit_code)};
  if (timed_out) {
    outcome.failure_code = "TIMED_OUT";
    outcome.message =
        "workload exceeded its timeout of " + format_seconds(*m_request.job.spec->timeout_seconds) + " and was stopped";
  } else if (oom) {
    outcome.failure_code = "OOM";
    outcome.message = "workload was killed: out of memory (exit code 137)";
  } else if (*exit_code != 0) {
    outcome.failure_code = "NONZERO_EXIT";
  }
  return outcome;
}

// `stop` sends SIGTERM and SIGKILL after the grace; `kill` covers an engine
// whose stop failed.
void ContainerRun::stop_container() {
  auto stopped = run_command(engine_argv({"stop", "-t", std::to_string(m_options.stop_grace_seconds), m_name}),
                             k_command_timeout + std::chrono::seconds(m_options.stop_grace_seconds));
  if (!stopped.ok() || stopped->exit_code != 0) (void)run_command(engine_argv({"kill", m_name}), k_command_timeout);
}

void ContainerRun::discard_log_file() {
  std::error_code ignored;
  if (m_log_file) std::filesystem::remove(*m_log_file, ignored);
}

void ContainerRun::remove_container() {
  auto removed = run_command(engine_argv({"rm", "-f", m_name}), k_command_timeout);
  if (!removed.ok() || removed->exit_code != 0)
    util::log(util::LogLevel::warn, "exec", "cannot remove container " + m_name,
              {{"job_id", job_id()}, {"error", removed.ok() ? removed->last_error_line() : removed.error().message}});
}

bool ContainerRun::oom_killed() {
  auto inspected =
      run_command(engine_argv({"container", "inspect", "--format", "{{.State.OOMKilled}}", m_name}), k_command_timeout);
  return inspected.ok() && inspected->exit_code == 0 && util::trim(inspected->out) == "true";
}

}  // namespace jgrid::exec
