#include "exec/container_process.hpp"

#include <catch2/catch.hpp>
#include <mutex>
#include <sstream>
#include <thread>

#include "exec/log_line_limit.hpp"

using namespace jgrid;
using namespace jgrid::exec;
using namespace std::chrono_literals;

TEST_CASE("exec::run_command collects both streams and the exit code", "[exec][process]") {
  auto result = run_command({"sh", "-c", "echo out; echo err >&2; exit 7"});
  REQUIRE(result.ok());
  CHECK(result->exit_code == 7);
  CHECK(result->out == "out\n");
  CHECK(result->err == "err\n");
  CHECK(result->last_error_line() == "err");
  CHECK_FALSE(result->timed_out);
}

TEST_CASE("exec::run_command passes arguments without a shell", "[exec][process]") {
  auto result = run_command({"echo", "$(id)", "a;b", "`x`"});
  REQUIRE(result.ok());
  CHECK(result->out == "$(id) a;b `x`\n");
}

TEST_CASE("exec::run_command kills a command that outlives its timeout", "[exec][process]") {
  auto started = std::chrono::steady_clock::now();
  auto result = run_command({"sleep", "20"}, 300ms);
  REQUIRE(result.ok());
  CHECK(result->timed_out);
  CHECK(result->exit_code == -1);
  CHECK(std::chrono::steady_clock::now() - started < 5s);
}

TEST_CASE("exec::run_command reports a program that is not on PATH", "[exec][process]") {
  auto result = run_command({"no-such-program-jgrid", "x"});
  REQUIRE_FALSE(result.ok());
  CHECK(result.error().code == "COMMAND_FAILED");
  CHECK(result.error().message == "no-such-program-jgrid: not found on PATH");
  CHECK_FALSE(on_path("no-such-program-jgrid"));
  CHECK(on_path("sh"));
}

TEST_CASE("exec::StreamedProcess delivers every line of both streams before it is done", "[exec][process]") {
  std::mutex mutex;
  std::vector<std::string> out, err;
  auto process = StreamedProcess::start({"sh", "-c", "for i in 1 2 3; do echo o$i; echo e$i >&2; done; exit 4"},
                                        [&](const std::string& stream, const std::string& line) {
                                          std::lock_guard lock(mutex);
                                          (stream == "stdout" ? out : err).push_back(line);
                                        });
  REQUIRE(process.ok());
  REQUIRE(process.value()->wait_done(10s));
  CHECK(process.value()->exit_code() == 4);
  CHECK(out == std::vector<std::string>{"o1", "o2", "o3"});
  CHECK(err == std::vector<std::string>{"e1", "e2", "e3"});
}

TEST_CASE("exec::StreamedProcess cuts output without newlines into marked pieces while it runs", "[exec][process]") {
  // 300 KiB and no newline: before the bound, nothing came out until the end and memory grew with the output.
  std::mutex mutex;
  std::vector<std::string> out;
  auto process = StreamedProcess::start({"sh", "-c", "head -c 307200 /dev/zero | tr '\\0' a; sleep 30"},
                                        [&](const std::string&, const std::string& line) {
                                          std::lock_guard lock(mutex);
                                          out.push_back(line);
                                        });
  REQUIRE(process.ok());
  for (int i = 0; i < 100; ++i) {
    {
      std::lock_guard lock(mutex);
      if (out.size() == 4) break;
    }
    std::this_thread::sleep_for(50ms);
  }
  process.value()->kill();
  std::lock_guard lock(mutex);
  REQUIRE(out.size() >= 4);  // four whole pieces while the command still runs; the fifth is open
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(out[i] == std::string(k_max_log_line_bytes, 'a') + std::string(k_cut_line_marker));
  }
}

TEST_CASE("exec::BoundedLineReader reads lines like getline and pieces of long ones", "[exec][process]") {
  std::istringstream in("one\n\n" + std::string(10, 'x') + "\nlast");
  BoundedLineReader reader(4);
  std::vector<std::string> lines;
  for (std::string line; reader.next(in, line);) lines.push_back(line);
  const std::string marked = std::string(k_cut_line_marker);
  CHECK(lines == std::vector<std::string>{"one", "", "xxxx" + marked, "xxxx" + marked, "xx", "last"});
}

TEST_CASE("exec::StreamedProcess kill ends a running child at once", "[exec][process]") {
  auto process = StreamedProcess::start({"sleep", "30"}, [](const std::string&, const std::string&) {});
  REQUIRE(process.ok());
  CHECK_FALSE(process.value()->wait_done(50ms));
  auto started = std::chrono::steady_clock::now();
  process.value()->kill();
  CHECK(process.value()->wait_done(0ms));
  CHECK(process.value()->exit_code() == -1);
  CHECK(std::chrono::steady_clock::now() - started < 5s);
}

TEST_CASE("exec::CommandResult::last_error_line prefers the engine's Error line", "[exec][process]") {
  CommandResult result;
  result.err = "Error: unknown flag: --bogus\nSee 'podman run --help'\n";
  CHECK(result.last_error_line() == "Error: unknown flag: --bogus");
  result.err = "warning\nsomething broke\n\n";
  CHECK(result.last_error_line() == "something broke");
  result.err.clear();
  result.out = "only out\n";
  CHECK(result.last_error_line() == "only out");
}
