#pragma once
// The file a container's output is written to by podman's conmon with the
// k8s-file log driver, read directly: following it costs no engine process,
// keeps the order in which the container wrote stdout and stderr lines, and
// is complete as soon as `wait` returns (conmon drains the container's
// pipes into it before it records the exit). One record per line:
//   <RFC 3339 time> <stdout|stderr> <F|P> <text>\n
// `P` marks a piece of a longer line (or of a last line without newline)
// that the next records of the same stream continue; `F` its last piece.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "jgrid/exec/executor.hpp"

namespace jgrid::exec {

// Turns the bytes of such a file into whole lines. Pure; not thread-safe.
class LogFileParser {
 public:
  // Parses `bytes`, the file's next bytes (records may be cut anywhere), and
  // appends each line they complete to `out`, in file order. A record that
  // is not in the format above is kept whole as a stdout line.
  void feed(std::string_view bytes, std::vector<LogLine>& out);
  // The end of the file: appends what is still open (a last record without
  // newline, pieces of a line with no F record) as lines, stdout first.
  void finish(std::vector<LogLine>& out);
  // Lines longer than k_max_log_line_bytes (log_line_limit.hpp) come out in
  // marked pieces as their bytes arrive, so the parser holds at most about
  // one line's limit per stream whatever the container writes.

 private:
  void record(std::string_view record, std::vector<LogLine>& out);
  void spill_partial_record(std::vector<LogLine>& out);
  std::string m_partial_record;  // bytes after the last '\n'
  std::string m_open[2];         // P pieces of stdout [0] and stderr [1]
};

// Follows one such file as it grows. Not thread-safe.
class LogFileTail {
 public:
  explicit LogFileTail(std::filesystem::path path) : m_path(std::move(path)) {}
  ~LogFileTail();
  LogFileTail(const LogFileTail&) = delete;
  LogFileTail& operator=(const LogFileTail&) = delete;

  // Reads at most `max_bytes` more and appends the lines they complete to
  // `out`. Returns the number of bytes read: 0 at the current end, or while
  // the file does not exist. A file that became shorter than what was read
  // (truncated by the engine's size limit) is read again from its start.
  std::size_t read(std::vector<LogLine>& out, std::size_t max_bytes);
  // After the last read(): the lines still open (LogFileParser::finish).
  void finish(std::vector<LogLine>& out) { m_parser.finish(out); }
  // True once the file was opened.
  bool opened() const { return m_fd >= 0; }
  // The error that keeps the file from being opened ("" when none).
  const std::string& open_error() const { return m_open_error; }

 private:
  bool open();
  std::filesystem::path m_path;
  int m_fd = -1;
  std::uint64_t m_offset = 0;
  std::string m_open_error;
  std::string m_buffer;
  LogFileParser m_parser;
};

}  // namespace jgrid::exec
