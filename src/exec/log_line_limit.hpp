#pragma once
// The bound on one line of workload output. A container that writes without
// newlines (or one enormous line) must not grow the server's memory: any
// line longer than k_max_log_line_bytes is delivered as pieces of at most
// that many bytes, cut on a UTF-8 character boundary, and every piece but
// the last ends with k_cut_line_marker (so a reader can join them again).
// docs/api.md ("Logs") documents this for clients.
#include <cstddef>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "jgrid/exec/executor.hpp"

namespace jgrid::exec {

inline constexpr std::size_t k_max_log_line_bytes = 64 * 1024;
inline constexpr std::string_view k_cut_line_marker = " [line continues]";

// Where the first piece of `text` (longer than `limit`) ends: at most
// `limit` bytes, moved back so that no UTF-8 sequence is split.
std::size_t log_line_cut_point(std::string_view text, std::size_t limit = k_max_log_line_bytes);

// While `open` (an unfinished line of `stream`) holds more than the limit,
// moves its first piece, marked, into `out`.
void cut_long_line(const std::string& stream, std::string& open, std::vector<LogLine>& out,
                   std::size_t limit = k_max_log_line_bytes);

// Reads a stream line by line like std::getline, but a line longer than the
// limit comes out as marked pieces (see above). One reader per stream.
class BoundedLineReader {
 public:
  explicit BoundedLineReader(std::size_t limit = k_max_log_line_bytes) : m_limit(limit) {}
  // The next line (without its newline) or piece into `line`; false at the
  // end of `in` with nothing left.
  bool next(std::istream& in, std::string& line);

 private:
  std::size_t m_limit;
  std::string m_carry;  // the bytes after the last cut, start of the next piece
};

}  // namespace jgrid::exec
