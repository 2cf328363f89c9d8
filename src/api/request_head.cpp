#include "api/request_head.hpp"

namespace jgrid::api {
namespace {

HeadScan refused(int status, std::string code, std::string message) {
  HeadScan scan;
  scan.state = HeadScan::State::refused;
  scan.status = status;
  scan.code = std::move(code);
  scan.message = std::move(message);
  return scan;
}

HeadScan uri_too_long(const HeadLimits& limits) {
  return refused(414, "URI_TOO_LONG",
                 "request line longer than the limit of " + std::to_string(limits.max_request_line) + " bytes");
}

HeadScan headers_too_large(const std::string& what, std::size_t limit) {
  return refused(431, "HEADERS_TOO_LARGE", what + " over the limit of " + std::to_string(limit));
}

// A line's length without its "\r\n" or "\n".
std::size_t content_length(std::string_view bytes, std::size_t start, std::size_t newline) {
  std::size_t end = newline;
  if (end > start && bytes[end - 1] == '\r') --end;
  return end - start;
}

// The length of the line from `start` without its ending; of an unfinished
// line (`newline` npos), what has arrived, less a last "\r" that may be
// the start of its ending.
std::size_t line_length(std::string_view bytes, std::size_t start, std::size_t newline) {
  return content_length(bytes, start, newline == std::string_view::npos ? bytes.size() : newline);
}

}  // namespace

HeadScan scan_head(std::string_view bytes, const HeadLimits& limits) {
  std::size_t first_newline = bytes.find('\n');
  if (line_length(bytes, 0, first_newline) > limits.max_request_line) return uri_too_long(limits);
  if (first_newline == std::string_view::npos) return {};
  std::size_t start = first_newline + 1;
  std::size_t headers = 0;
  while (true) {
    if (start > limits.max_head_bytes) return headers_too_large("request head bytes", limits.max_head_bytes);
    std::size_t newline = bytes.find('\n', start);
    if (line_length(bytes, start, newline) > limits.max_header_line)
      return headers_too_large("a header line's bytes", limits.max_header_line);
    if (newline == std::string_view::npos) {
      if (bytes.size() > limits.max_head_bytes) return headers_too_large("request head bytes", limits.max_head_bytes);
      return {};
    }
    if (content_length(bytes, start, newline) == 0) {
      HeadScan scan;
      scan.state = HeadScan::State::complete;
      scan.end = newline + 1;
      return scan;
    }
    if (++headers > limits.max_header_count) return headers_too_large("header count", limits.max_header_count);
    start = newline + 1;
  }
}

}  // namespace jgrid::api
