#include "exec/container_log_file.hpp"
#include "exec/log_line_limit.hpp"

#include <catch2/catch.hpp>
#include <fstream>

#include "recording_sink.hpp"

using namespace jgrid;
using namespace jgrid::exec;
using namespace jgrid::exec::testing;
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

}  // namespace

TEST_CASE("exec::LogFileParser keeps the order of stdout and stderr lines", "[exec][container]") {
  std::string file = log_record("stdout", "F", "one") + log_record("stderr", "F", "warn: two") + log_record("stdout", "F", "three") +
                     log_record("stdout", "F", "");
  CHECK(parse(file) == Lines{{"stdout", "one"}, {"stderr", "warn: two"}, {"stdout", "three"}, {"stdout", ""}});
}

TEST_CASE("exec::LogFileParser joins the pieces of a long line per stream", "[exec][container]") {
  std::string file = log_record("stdout", "P", "abc") + log_record("stderr", "F", "err") + log_record("stdout", "P", "def") +
                     log_record("stdout", "F", "ghi") + log_record("stdout", "F", "next");
  CHECK(parse(file) == Lines{{"stderr", "err"}, {"stdout", "abcdefghi"}, {"stdout", "next"}});
}

TEST_CASE("exec::LogFileParser takes records cut anywhere", "[exec][container]") {
  std::string file = log_record("stdout", "F", "first line") + log_record("stderr", "F", "second line with spaces  ");
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
  CHECK(parse(log_record("stdout", "F", "a") + log_record("stdout", "P", "no newline")) ==
        Lines{{"stdout", "a"}, {"stdout", "no newline"}});
  CHECK(parse(log_record("stdout", "F", "a") + log_record("stdout", "P", "no newline"), false) == Lines{{"stdout", "a"}});
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

  append_text(path, log_record("stdout", "F", "1") + k_time + " stdout F 2");
  CHECK(tail.read(out, 1024) > 0);
  CHECK(pairs(out) == Lines{{"stdout", "1"}});
  append_text(path, "2\n" + log_record("stderr", "F", "3"));
  while (tail.read(out, 7) > 0) {  // small reads cut records anywhere
  }
  CHECK(pairs(out) == Lines{{"stdout", "1"}, {"stdout", "22"}, {"stderr", "3"}});

  out.clear();
  fs::resize_file(path, 0);
  append_text(path, log_record("stdout", "F", "after"));
  tail.read(out, 1024);
  tail.finish(out);
  CHECK(pairs(out) == Lines{{"stdout", "after"}});
}

TEST_CASE("exec::LogFileParser cuts a line longer than the limit into marked pieces as it arrives", "[exec][container]") {
  // conmon writes a line without newline as P records of its buffer size; 200 KiB of them, never an F.
  LogFileParser parser;
  std::vector<LogLine> out;
  const std::string chunk(8192, 'a');
  for (int i = 0; i < 25; ++i) parser.feed(log_record("stdout", "P", chunk), out);
  REQUIRE(out.size() == 3);  // 3 × 64 KiB cut while the line is still open, not held until it ends
  for (const auto& line : out) {
    CHECK(line.stream == "stdout");
    CHECK(line.text.size() == k_max_log_line_bytes + k_cut_line_marker.size());
    CHECK(line.text.substr(k_max_log_line_bytes) == k_cut_line_marker);
  }
  parser.feed(log_record("stdout", "F", "end"), out);
  REQUIRE(out.size() == 4);
  CHECK(out.back().text == std::string(25 * 8192 - 3 * k_max_log_line_bytes, 'a') + "end");
}

TEST_CASE("exec::LogFileParser bounds one record that never ends", "[exec][container]") {
  LogFileParser parser;
  std::vector<LogLine> out;
  parser.feed(k_time + " stderr F ", out);
  const std::string chunk(100000, 'b');
  for (int i = 0; i < 10; ++i) parser.feed(chunk, out);  // 1 MB in one record, no newline yet
  CHECK(out.size() == 1000000 / k_max_log_line_bytes);
  for (const auto& line : out) CHECK(line.stream == "stderr");
  parser.feed("c\n", out);
  CHECK(out.back().text == std::string(1000000 % k_max_log_line_bytes, 'b') + "c");
  CHECK(out.back().stream == "stderr");
}

TEST_CASE("exec::LogFileParser keeps lines at the limit whole and cuts on a character boundary", "[exec][container]") {
  CHECK(parse(log_record("stdout", "F", std::string(k_max_log_line_bytes, 'x'))) ==
        Lines{{"stdout", std::string(k_max_log_line_bytes, 'x')}});
  // "é" is two bytes; one that straddles the limit goes whole into the next piece.
  std::string text = std::string(k_max_log_line_bytes - 1, 'x') + "\xc3\xa9" + "tail";
  Lines lines = parse(log_record("stdout", "F", text));
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].second == std::string(k_max_log_line_bytes - 1, 'x') + std::string(k_cut_line_marker));
  CHECK(lines[1].second == "\xc3\xa9tail");
}
