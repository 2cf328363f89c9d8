#include "exec/container_process.hpp"

#include <fcntl.h>

#include <boost/process.hpp>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "exec/log_line_limit.hpp"

namespace bp = boost::process;

namespace jgrid::exec {
namespace {

Result<boost::filesystem::path> find_program(const std::string& program) {
  if (program.find('/') != std::string::npos) {
    boost::filesystem::path path(program);
    if (boost::filesystem::exists(path)) return path;
    return make_error("COMMAND_FAILED", program + ": no such file");
  }
  boost::filesystem::path path = bp::search_path(program);
  if (path.empty()) return make_error("COMMAND_FAILED", program + ": not found on PATH");
  return path;
}

std::vector<std::string> arguments_of(const std::vector<std::string>& argv) { return {argv.begin() + 1, argv.end()}; }

// Every spawn holds this lock from the creation of its pipes until their
// write ends are closed in the parent, and all pipe ends are close-on-exec:
// so no other child (and no daemon such a child leaves, like the engine's
// conmon) inherits a pipe and keeps it open after the process it belongs to ended.
std::mutex g_spawn_mutex;

void close_on_exec(int fd) {
  if (fd >= 0) ::fcntl(fd, F_SETFD, ::fcntl(fd, F_GETFD) | FD_CLOEXEC);
}

Error start_error(const std::vector<std::string>& argv, const std::exception& error) {
  return make_error("COMMAND_FAILED", argv.front() + ": cannot start: " + error.what());
}

std::string last_line(const std::string& text) {
  std::size_t end = text.find_last_not_of(" \t\r\n");
  if (end == std::string::npos) return "";
  std::size_t start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1,
                     end + 1 - (start == std::string::npos ? 0 : start + 1));
}

// The last "Error: …" line, else the last line: engines follow their error
// with hints ("See 'podman run --help'").
std::string error_line(const std::string& text) {
  std::string found;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (line.rfind("Error", 0) == 0 || line.rfind("error", 0) == 0) found = line;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return found.empty() ? last_line(text) : found;
}

}  // namespace

std::string CommandResult::last_error_line() const {
  std::string line = error_line(err);
  return line.empty() ? last_line(out) : line;
}

bool on_path(const std::string& program) { return !program.empty() && find_program(program).ok(); }

Result<CommandResult> run_command(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) {
  CommandResult result;
  std::mutex mutex;
  auto process = StreamedProcess::start(argv, [&](const std::string& stream, const std::string& line) {
    std::lock_guard lock(mutex);
    (stream == "stdout" ? result.out : result.err) += line + "\n";
  });
  if (!process.ok()) return process.error();
  if (process.value()->wait_done(timeout)) {
    result.exit_code = process.value()->exit_code();
  } else {
    result.timed_out = true;
    process.value()->kill();
  }
  std::lock_guard lock(mutex);
  return result;
}

struct StreamedProcess::State {
  bp::ipstream out, err;
  bp::child child;
  std::thread out_reader, err_reader;
  std::mutex mutex;
  std::condition_variable closed;
  int open_streams = 2;
  bool reaped = false;
  int exit_code = -1;

  void read(bp::ipstream& stream, const std::string& name, const OnLine& on_line) {
    std::string line;
    BoundedLineReader lines;  // a container that never writes a newline must not grow memory
    while (lines.next(stream, line)) {
      try {
        on_line(name, line);
      } catch (...) {  // a failing consumer must not stop the reading (the pipe would fill up)
      }
    }
    std::lock_guard lock(mutex);
    --open_streams;
    closed.notify_all();
  }
  void join() {
    if (out_reader.joinable()) out_reader.join();
    if (err_reader.joinable()) err_reader.join();
  }
};

StreamedProcess::StreamedProcess(std::unique_ptr<State> state) : m_state(std::move(state)) {}

StreamedProcess::~StreamedProcess() { kill(); }

Result<std::unique_ptr<StreamedProcess>> StreamedProcess::start(const std::vector<std::string>& argv, OnLine on_line) {
  if (argv.empty()) return make_error("COMMAND_FAILED", "empty command");
  auto program = find_program(argv.front());
  if (!program.ok()) return program.error();
  std::unique_ptr<State> state;
  try {
    std::lock_guard lock(g_spawn_mutex);
    state = std::make_unique<State>();
    for (auto* stream : {&state->out, &state->err}) {
      close_on_exec(stream->pipe().native_source());
      close_on_exec(stream->pipe().native_sink());  // dup2 onto 1 and 2 in the child drops the flag there
    }
    state->child = bp::child(program.value(), bp::args(arguments_of(argv)),
                             bp::std_in<bp::null, bp::std_out> state->out, bp::std_err > state->err);
  } catch (const std::exception& error) {
    return start_error(argv, error);
  }
  State* raw = state.get();
  raw->out_reader = std::thread([raw, on_line] { raw->read(raw->out, "stdout", on_line); });
  raw->err_reader = std::thread([raw, on_line] { raw->read(raw->err, "stderr", on_line); });
  return std::unique_ptr<StreamedProcess>(new StreamedProcess(std::move(state)));
}

bool StreamedProcess::wait_done(std::chrono::milliseconds timeout) {
  State& state = *m_state;
  {
    std::unique_lock lock(state.mutex);
    if (state.reaped) return true;
    if (!state.closed.wait_for(lock, timeout, [&] { return state.open_streams == 0; })) return false;
  }
  state.join();
  std::error_code ignored;
  state.child.wait(ignored);
  std::lock_guard lock(state.mutex);
  state.exit_code = state.child.exit_code();
  state.reaped = true;
  return true;
}

int StreamedProcess::exit_code() const { return m_state->exit_code; }

void StreamedProcess::kill() {
  State& state = *m_state;
  {
    std::lock_guard lock(state.mutex);
    if (state.reaped) return;
  }
  std::error_code ignored;
  if (state.child.valid() && state.child.running(ignored)) state.child.terminate(ignored);
  state.join();
  state.child.wait(ignored);
  std::lock_guard lock(state.mutex);
  state.reaped = true;
  state.exit_code = -1;
}

}  // namespace jgrid::exec
