#include "exec/log_line_limit.hpp"

namespace jgrid::exec {

std::size_t log_line_cut_point(std::string_view text, std::size_t limit) {
  if (text.size() <= limit) return text.size();
  std::size_t cut = limit;
  // A UTF-8 continuation byte is 10xxxxxx: step back to the start of its character (at most 3 bytes).
  for (std::size_t back = 0; back < 3 && cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80; ++back) {
    --cut;
  }
  return cut == 0 ? limit : cut;
}

void cut_long_line(const std::string& stream, std::string& open, std::vector<LogLine>& out, std::size_t limit) {
  std::size_t start = 0;
  while (open.size() - start > limit) {
    std::string_view rest(open.data() + start, open.size() - start);
    std::size_t cut = log_line_cut_point(rest, limit);
    std::string piece(rest.substr(0, cut));
    piece.append(k_cut_line_marker);
    out.push_back({stream, std::move(piece)});
    start += cut;
  }
  if (start > 0) open.erase(0, start);
}

bool BoundedLineReader::next(std::istream& in, std::string& line) {
  line.swap(m_carry);
  m_carry.clear();
  std::streambuf* buffer = in.rdbuf();
  bool got_any = !line.empty();
  for (;;) {
    int c = buffer->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      return got_any;
    }
    got_any = true;
    if (c == '\n') return true;
    line.push_back(static_cast<char>(c));
    if (line.size() > m_limit) {
      std::size_t cut = log_line_cut_point(line, m_limit);
      m_carry.assign(line, cut, std::string::npos);
      line.resize(cut);
      line.append(k_cut_line_marker);
      return true;
    }
  }
}

}  // namespace jgrid::exec
