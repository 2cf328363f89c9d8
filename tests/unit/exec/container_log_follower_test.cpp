#include "exec/container_log_follower.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <mutex>
#include <thread>

#include "recording_sink.hpp"

using namespace jgrid;
using namespace jgrid::exec;
using namespace jgrid::exec::testing;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

// What a follower delivered, batch by batch.
struct Received {
  std::mutex mutex;
  std::vector<std::vector<std::string>> batches;

  LogFileFollower::Deliver deliver() {
    return [this](std::vector<LogLine>& lines) {
      std::vector<std::string> batch;
      for (auto& line : lines) batch.push_back(line.stream + ":" + line.text);
      std::lock_guard lock(mutex);
      batches.push_back(std::move(batch));
    };
  }
  std::vector<std::string> lines() {
    std::lock_guard lock(mutex);
    std::vector<std::string> all;
    for (const auto& batch : batches) all.insert(all.end(), batch.begin(), batch.end());
    return all;
  }
  bool wait_for(std::size_t count) {
    for (int i = 0; i < 1000 && lines().size() < count; ++i) std::this_thread::sleep_for(10ms);
    return lines().size() >= count;
  }
};

}  // namespace

TEST_CASE("exec::LogFileFollower delivers lines as the file grows, then the rest on finish", "[exec][container]") {
  testing::TempWorkspace dir;
  fs::path path = dir.path() / "jgrid-job.log";
  Received received;
  LogFileFollower follower(path, received.deliver());  // the file does not exist yet
  append_text(path, log_record("stdout", "F", "one") + log_record("stderr", "F", "two"));
  REQUIRE(received.wait_for(2));
  append_text(path, log_record("stdout", "F", "three") + log_record("stdout", "P", "no newline at the end"));
  REQUIRE(received.wait_for(3));
  CHECK(follower.finish().empty());
  CHECK(received.lines() ==
        std::vector<std::string>{"stdout:one", "stderr:two", "stdout:three", "stdout:no newline at the end"});
  for (const auto& batch : received.batches) CHECK_FALSE(batch.empty());
}

TEST_CASE("exec::LogFileFollower hands a large output over in batches, in order", "[exec][container]") {
  testing::TempWorkspace dir;
  fs::path path = dir.path() / "jgrid-job.log";
  std::string text;
  const int count = 30000;  // ~2 MiB of records: more than one batch
  for (int i = 0; i < count; ++i) text += log_record(i % 3 ? "stdout" : "stderr", "F", std::to_string(i) + std::string(30, 'x'));
  append_text(path, text);
  Received received;
  LogFileFollower follower(path, received.deliver());
  CHECK(follower.finish().empty());
  auto lines = received.lines();
  REQUIRE(lines.size() == count);
  for (int i = 0; i < count; i += 997)
    CHECK(lines[i] == std::string(i % 3 ? "stdout:" : "stderr:") + std::to_string(i) + std::string(30, 'x'));
  CHECK(received.batches.size() >= 2);
}

TEST_CASE("exec::LogFileFollower says why when the file never appeared", "[exec][container]") {
  testing::TempWorkspace dir;
  Received received;
  LogFileFollower follower(dir.path() / "missing.log", received.deliver());
  std::string error = follower.finish();
  CHECK(error.find("missing.log") != std::string::npos);
  CHECK(received.lines().empty());
}

TEST_CASE("exec::LogFileFollower delivers nothing more once abandoned", "[exec][container]") {
  testing::TempWorkspace dir;
  fs::path path = dir.path() / "jgrid-job.log";
  Received received;
  LogFileFollower follower(path, received.deliver());
  append_text(path, log_record("stdout", "F", "kept"));
  REQUIRE(received.wait_for(1));
  follower.abandon();
  append_text(path, log_record("stdout", "F", "after"));
  std::this_thread::sleep_for(100ms);
  CHECK(received.lines() == std::vector<std::string>{"stdout:kept"});
}
