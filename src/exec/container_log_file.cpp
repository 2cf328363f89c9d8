#include "exec/container_log_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "exec/log_line_limit.hpp"

namespace jgrid::exec {
namespace {

// "<time> <stream> <tag> <text>": the three fields before the text.
struct Record {
  std::string_view stream, tag, text;
};

bool split_record(std::string_view line, Record& record) {
  std::size_t time_end = line.find(' ');
  if (time_end == std::string_view::npos) return false;
  std::size_t stream_end = line.find(' ', time_end + 1);
  if (stream_end == std::string_view::npos) return false;
  record.stream = line.substr(time_end + 1, stream_end - time_end - 1);
  if (record.stream != "stdout" && record.stream != "stderr") return false;
  std::size_t tag_end = line.find(' ', stream_end + 1);
  record.tag = line.substr(stream_end + 1, tag_end == std::string_view::npos ? std::string_view::npos
                                                                             : tag_end - stream_end - 1);
  if (record.tag != "F" && record.tag != "P") return false;
  record.text = tag_end == std::string_view::npos ? std::string_view() : line.substr(tag_end + 1);
  return true;
}

}  // namespace

void LogFileParser::feed(std::string_view bytes, std::vector<LogLine>& out) {
  while (!bytes.empty()) {
    std::size_t newline = bytes.find('\n');
    if (newline == std::string_view::npos) {
      m_partial_record.append(bytes);
      if (m_partial_record.size() > k_max_log_line_bytes) spill_partial_record(out);
      return;
    }
    if (m_partial_record.empty()) {
      record(bytes.substr(0, newline), out);
    } else {
      m_partial_record.append(bytes.substr(0, newline));
      record(m_partial_record, out);
      m_partial_record.clear();
    }
    bytes.remove_prefix(newline + 1);
  }
}

void LogFileParser::record(std::string_view line, std::vector<LogLine>& out) {
  Record parsed;
  if (!split_record(line, parsed)) {
    out.push_back({"stdout", std::string(line)});
    return;
  }
  std::string& open = m_open[parsed.stream == "stderr" ? 1 : 0];
  const std::string stream(parsed.stream);
  if (parsed.tag == "P") {
    open.append(parsed.text);
    cut_long_line(stream, open, out);
    return;
  }
  open.append(parsed.text);
  cut_long_line(stream, open, out);
  out.push_back({stream, std::move(open)});
  open.clear();
}

// A record that has not ended yet but is already longer than a line may be:
// its text so far joins the stream's open line (cut into pieces there), and
// only its header stays, so that the rest of the record still finds it.
void LogFileParser::spill_partial_record(std::vector<LogLine>& out) {
  Record parsed;
  if (!split_record(m_partial_record, parsed) || parsed.text.empty()) {
    cut_long_line("stdout", m_partial_record, out);  // not a record: plain output, cut as such
    return;
  }
  std::string& open = m_open[parsed.stream == "stderr" ? 1 : 0];
  const std::string stream(parsed.stream);
  open.append(parsed.text);
  m_partial_record.resize(m_partial_record.size() - parsed.text.size());  // the text is the record's tail
  cut_long_line(stream, open, out);
}

void LogFileParser::finish(std::vector<LogLine>& out) {
  if (!m_partial_record.empty()) {
    record(m_partial_record, out);
    m_partial_record.clear();
  }
  for (int stream : {0, 1}) {
    if (m_open[stream].empty()) continue;
    out.push_back({stream == 0 ? "stdout" : "stderr", std::move(m_open[stream])});
    m_open[stream].clear();
  }
}

LogFileTail::~LogFileTail() {
  if (m_fd >= 0) ::close(m_fd);
}

bool LogFileTail::open() {
  if (m_fd >= 0) return true;
  m_fd = ::open(m_path.c_str(), O_RDONLY | O_CLOEXEC);
  m_open_error = m_fd >= 0 ? "" : m_path.string() + ": " + std::strerror(errno);
  return m_fd >= 0;
}

std::size_t LogFileTail::read(std::vector<LogLine>& out, std::size_t max_bytes) {
  if (!open()) return 0;
  struct stat info {};
  if (::fstat(m_fd, &info) == 0 && static_cast<std::uint64_t>(info.st_size) < m_offset) {
    m_offset = 0;  // truncated under us: its new content starts at 0
    m_parser = LogFileParser();
  }
  m_buffer.resize(max_bytes);
  std::size_t total = 0;
  while (total < max_bytes) {
    ssize_t got = ::pread(m_fd, m_buffer.data() + total, max_bytes - total, static_cast<off_t>(m_offset + total));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    total += static_cast<std::size_t>(got);
  }
  m_offset += total;
  m_parser.feed(std::string_view(m_buffer.data(), total), out);
  return total;
}

}  // namespace jgrid::exec
