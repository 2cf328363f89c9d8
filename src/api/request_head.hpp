#pragma once
// Where a request head ends, and whether it is within the server's limits,
// read off the bytes received so far. The connection front (front.hpp)
// calls this after every read of a connection that has not sent a whole
// head yet, so a head over a limit is refused before more of it is kept.
// Pure; thread-safe.
#include <cstddef>
#include <string>
#include <string_view>

namespace jgrid::api {

struct HeadLimits {
  std::size_t max_request_line = 8192;  // method, target and version: 414 beyond
  std::size_t max_header_line = 8192;   // one "Name: value" line: 431 beyond
  std::size_t max_header_count = 100;   // 431 beyond
  std::size_t max_head_bytes = 65536;   // request line and headers together: 431 beyond
};

struct HeadScan {
  enum class State { incomplete, complete, refused };
  State state = State::incomplete;
  std::size_t end = 0;     // complete: bytes of the head, its empty line included
  int status = 0;          // refused: 414 or 431
  std::string code;        // refused: URI_TOO_LONG or HEADERS_TOO_LARGE
  std::string message;     // refused: names the limit and its value
};

// Scans `bytes` (the start of a request) for the empty line that ends its
// head. Lines end in "\n" (a "\r" before it is part of the ending, as the
// HTTP library reads them). Refused as soon as the part received already
// breaks a limit, complete or not.
HeadScan scan_head(std::string_view bytes, const HeadLimits& limits);

}  // namespace jgrid::api
