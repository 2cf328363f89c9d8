#include "term.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "jgrid/util/clock.hpp"

namespace jgrid::cli {
namespace {

constexpr const char* k_erase_line = "\r\033[K";

std::string two_digits(std::int64_t n) { return (n < 10 ? "0" : "") + std::to_string(n); }

}  // namespace

bool stdout_is_tty() {
  const char* term = std::getenv("TERM");
  return ::isatty(STDOUT_FILENO) == 1 && !(term && std::strcmp(term, "dumb") == 0);
}

void print_table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> widths(header.size());
  for (std::size_t i = 0; i < header.size(); ++i) widths[i] = header[i].size();
  for (const auto& row : rows)
    for (std::size_t i = 0; i < row.size() && i < widths.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  auto print_row = [&](const std::vector<std::string>& row) {
    std::string line;
    for (std::size_t i = 0; i < row.size() && i < widths.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(widths[i] - row[i].size() + 2, ' ');
    }
    std::cout << line << "\n";
  };
  print_row(header);
  for (const auto& row : rows) print_row(row);
}

std::string format_duration(std::int64_t seconds) {
  seconds = std::max<std::int64_t>(seconds, 0);
  if (seconds < 60) return std::to_string(seconds) + "s";
  if (seconds < 3600) return std::to_string(seconds / 60) + "m" + two_digits(seconds % 60) + "s";
  return std::to_string(seconds / 3600) + "h" + two_digits(seconds % 3600 / 60) + "m";
}

std::string format_bytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) value /= 1024, ++unit;
  if (unit == 0) return std::to_string(bytes) + " B";
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f %s", value, units[unit]);
  return text;
}

void StatusLine::set(const std::string& text, const std::string& ticker) {
  std::lock_guard lock(m_mutex);
  bool changed = text != m_text;
  m_text = text;
  m_ticker = ticker;
  if (m_tty) return draw();
  if (changed) std::cout << text << (ticker.empty() ? "" : "  " + ticker) << std::endl;
}

void StatusLine::print(const std::string& line) {
  std::lock_guard lock(m_mutex);
  if (m_tty && m_drawn) std::cout << k_erase_line;
  std::cout << line << "\n";
  if (m_tty && !m_text.empty()) draw();
  else std::cout.flush();
}

void StatusLine::clear() {
  std::lock_guard lock(m_mutex);
  if (m_tty && m_drawn) std::cout << k_erase_line << std::flush;
  m_drawn = false;
  m_text.clear();  // later print()s must not bring it back
  m_ticker.clear();
}

void StatusLine::draw() {
  std::cout << k_erase_line << m_text << (m_ticker.empty() ? "" : "  " + m_ticker) << std::flush;
  m_drawn = true;
}

void ProgressBar::update(std::uint64_t done, std::uint64_t total) {
  if (!m_tty) return;
  std::int64_t now = util::wall_now_ms();
  if (now - m_last_draw_ms < 100 && done != total) return;
  m_last_draw_ms = now;
  constexpr int k_width = 30;
  std::string bar;
  std::string amount = format_bytes(done);
  if (total > 0) {
    int filled = static_cast<int>(k_width * done / total);
    bar = "[" + std::string(filled, '#') + std::string(k_width - filled, '.') + "] ";
    amount += " / " + format_bytes(total) + " (" + std::to_string(100 * done / total) + "%)";
  }
  std::cout << k_erase_line << m_label << " " << bar << amount << std::flush;
  m_drawn = true;
}

void ProgressBar::finish() {
  if (m_tty && m_drawn) std::cout << k_erase_line << std::flush;
  m_drawn = false;
}

}  // namespace jgrid::cli
