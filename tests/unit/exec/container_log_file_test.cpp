#include "exec/container_log_file.hpp"

#include <catch2/catch.hpp>
#include <fstream>

#include "recording_sink.hpp"

using namespace jgrid;
using namespace jgrid::exec;
namespace fs = std::filesystem;

namespace {

using Lines = std::vector<std::pair<std::string, std::string>>;

Lines pairs(const std::vector<LogLine>& lines) {
  Lines out;
  for (const auto& line : lines) out.emplace_back(line.stream, line.text);
  return out;
}

Lines parse(const std::string& bytes, bool finish = true) {
  LogFileParser parser;
  std::vector<LogLine> out;
  parser.feed(bytes, out);
  if (finish) parser.finish(out);
  return pairs(out);
}

const std::string k_time = "2026-12-03T08:22:53.999989987+00:00";

std::string rec(const std::string& stream, const std::string& tag, const std::string& text) {
  return k_time + " " + stream + " " + tag + " " + text + "\n";
}

void append(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::app) << text;
}

}  // namespace

TEST_CASE("exec::LogFileParser keeps the order of stdout and stderr lines", "[exec][container]") {
  std::string file = rec("stdout", "F", "one") + rec("stderr", "F", "warn: two") + rec("stdout", "F", "three") +
                     rec("stdout", "F", "");
  CHECK(parse(file) == Lines{{"stdout", "one"}, {"stderr", "warn: two"}, {"stdout", "three"}, {"stdout", ""}});
}

TEST_CASE("exec::LogFileParser joins the pieces of a long line per stream", "[exec][container]") {
  std::string file = rec("stdout", "P", "abc") + rec("stderr", "F", "err") + rec("stdout", "P", "def") +
                     rec("stdout", "F", "ghi") + rec("stdout", "F", "next");
  CHECK(parse(file) == Lines{{"stderr", "err"}, {"stdout", "abcdefghi"}, {"stdout", "next"}});
}

TEST_CASE("exec::LogFileParser takes records cut anywhere", "[exec][container]") {
  std::string file = rec("stdout", "F", "first line") + rec("stderr", "F", "second line with spaces  ");
  for (std::size_t cut = 0; cut <= file.size(); ++cut) {
    LogFileParser parser;
    std::vector<LogLine> out;
    parser.feed(file.substr(0, cut), out);
    parser.feed(file.substr(cut), out);
    CHECK(pairs(out) == Lines{{"stdout", "first line"}, {"stderr", "second line with spaces  "}});
  }
}

TEST_CASE("exec::LogFileParser gives what is open at the end as lines", "[exec][container]") {
  // A last line without newline: conmon writes it as a P record.
  CHECK(parse(rec("stdout", "F", "a") + rec("stdout", "P", "no newline")) ==
        Lines{{"stdout", "a"}, {"stdout", "no newline"}});
  CHECK(parse(rec("stdout", "F", "a") + rec("stdout", "P", "no newline"), false) == Lines{{"stdout", "a"}});
  // A record cut by the end of the file.
  CHECK(parse(k_time + " stderr F cut") == Lines{{"stderr", "cut"}});
}

TEST_CASE("exec::LogFileParser keeps a record of another format whole", "[exec][container]") {
  CHECK(parse("not a record\n" + k_time + " other F x\n") ==
        Lines{{"stdout", "not a record"}, {"stdout", k_time + " other F x"}});
}

TEST_CASE("exec::LogFileTail follows a growing file and restarts after a truncation", "[exec][container]") {
  testing::TempWorkspace dir;
  fs::path path = dir.path() / "container.log";
  LogFileTail tail(path);
  std::vector<LogLine> out;
  CHECK(tail.read(out, 1024) == 0);  // not there yet
  CHECK_FALSE(tail.opened());
  CHECK(tail.open_error().find("container.log") != std::string::npos);

  append(path, rec("stdout", "F", "1") + k_time + " stdout F 2");
  CHECK(tail.read(out, 1024) > 0);
  CHECK(pairs(out) == Lines{{"stdout", "1"}});
  append(path, "2\n" + rec("stderr", "F", "3"));
  while (tail.read(out, 7) > 0) {  // small reads cut records anywhere
  }
  CHECK(pairs(out) == Lines{{"stdout", "1"}, {"stdout", "22"}, {"stderr", "3"}});

  out.clear();
  fs::resize_file(path, 0);
  append(path, rec("stdout", "F", "after"));
  tail.read(out, 1024);
  tail.finish(out);
  CHECK(pairs(out) == Lines{{"stdout", "after"}});
}
