#pragma once
// Child processes for the container executor and GPU detection: an argv
// vector run directly (PATH lookup of argv[0], never a shell), stdin from
// /dev/null; pipes are close-on-exec, so no child inherits another's.
// Boost.Process stays inside the .cpp.
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "jgrid/util/result.hpp"

namespace jgrid::exec {

struct CommandResult {
  int exit_code = -1;    // -1 when killed (timeout) or not reaped normally
  std::string out, err;  // line by line, each line ending in '\n'
  bool timed_out = false;
  // The last "Error…" line of `err`, else its last non-empty line, else `out`'s.
  std::string last_error_line() const;
};

// True when `program` is an executable on PATH (or an executable path).
bool on_path(const std::string& program);

// Runs argv to the end, collecting both streams. Killed after `timeout`
// (result.timed_out). Error COMMAND_FAILED when it cannot be started
// ("podman: not found on PATH"). Thread-safe.
Result<CommandResult> run_command(const std::vector<std::string>& argv,
                                  std::chrono::milliseconds timeout = std::chrono::minutes(2));

// A running child whose stdout and stderr are read line by line, on two
// threads of its own, into a callback ("stdout" | "stderr", line without the
// newline). The callback must not destroy this object. Not copyable; its
// methods may be called from one other thread at a time.
class StreamedProcess {
 public:
  using OnLine = std::function<void(const std::string& stream, const std::string& line)>;

  // Error COMMAND_FAILED when it cannot be started.
  static Result<std::unique_ptr<StreamedProcess>> start(const std::vector<std::string>& argv, OnLine on_line);
  ~StreamedProcess();  // kills it if still running, joins the readers

  // Waits up to `timeout` for both streams to close and the process to be
  // reaped; true once it has (every line was delivered by then).
  bool wait_done(std::chrono::milliseconds timeout);
  // Precondition: wait_done() returned true. -1 when it died from a signal.
  int exit_code() const;
  // SIGKILL, reap, join the readers. Idempotent.
  void kill();

  struct State;

 private:
  explicit StreamedProcess(std::unique_ptr<State> state);
  std::unique_ptr<State> m_state;
};

}  // namespace jgrid::exec
