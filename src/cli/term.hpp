#pragma once
// Terminal output of the client commands. Control codes (carriage returns,
// erase-line) are only ever written when stdout is a terminal; piped output
// is plain lines.
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace jgrid::cli {

// True when stdout is a terminal (and TERM is not "dumb").
bool stdout_is_tty();

// Prints rows under a header with columns padded to their widest cell.
void print_table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows);

// "42s", "3m05s", "1h02m".
std::string format_duration(std::int64_t seconds);
// "512 B", "3.4 MiB".
std::string format_bytes(std::uint64_t bytes);

// One status line. On a terminal it is redrawn in place (and cleared before
// other output is printed through print()); otherwise each new status text
// is printed once as a plain line. Thread-safe.
class StatusLine {
 public:
  explicit StatusLine(bool tty) : m_tty(tty) {}
  // Sets the text with a `ticker` (e.g. elapsed time) after it. On a
  // terminal the line is redrawn; otherwise a line is printed only when the
  // text changes (a new ticker alone prints nothing).
  void set(const std::string& text, const std::string& ticker = "");
  // Prints a full line of other output (a log line) above the status line.
  void print(const std::string& line);
  // Removes the status line on a terminal (at the end); print()s after it
  // are plain lines until the next set().
  void clear();

 private:
  void draw();
  bool m_tty;
  std::mutex m_mutex;
  std::string m_text, m_ticker;
  bool m_drawn = false;
};

// A download progress bar on stderr-free stdout for terminals; silent
// otherwise. Redraws at most ~10 times a second.
class ProgressBar {
 public:
  ProgressBar(bool tty, std::string label) : m_tty(tty), m_label(std::move(label)) {}
  void update(std::uint64_t done, std::uint64_t total);
  void finish();

 private:
  bool m_tty;
  std::string m_label;
  std::int64_t m_last_draw_ms = 0;
  bool m_drawn = false;
};

}  // namespace jgrid::cli
