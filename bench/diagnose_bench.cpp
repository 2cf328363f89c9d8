// Cost of reading output for a failure diagnosis: every stored output line
// goes through screen::OutputScan::line, so its cost per line is what the
// log path pays. Median ns per line, in batches of 1,000 lines, for typical
// progress lines (no needle), lines that hold a needle but do not match
// (the regular expression runs), a matching error line, and a 64 KiB line.
// Usage: diagnose_bench [lines]   (default 2000000)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "jgrid/screen/diagnose.hpp"

namespace {

double median_ns(const std::string& text, long lines) {
  constexpr long k_batch = 1000;
  std::vector<double> per_line;
  for (long done = 0; done < lines; done += k_batch) {
    jgrid::screen::OutputScan scan;  // a fresh scan: a matched code would skip its patterns afterwards
    auto start = std::chrono::steady_clock::now();
    for (long i = 0; i < k_batch; ++i) scan.line("stdout", done + i, text);
    auto ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
    per_line.push_back(ns / k_batch);
  }
  std::nth_element(per_line.begin(), per_line.begin() + per_line.size() / 2, per_line.end());
  return per_line[per_line.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  long lines = argc > 1 ? std::atol(argv[1]) : 2000000;
  const std::pair<const char*, std::string> cases[] = {
      {"progress line (no needle)", "step 1200/5000 loss=0.4312 lr=3.0e-4 tokens/s=18231"},
      {"needle, no match", "warning: cannot open shared object file libfoo.so, using the fallback"},
      {"matching error line", "RuntimeError: HIP error: invalid device function"},
      {"64 KiB line (first 4 KiB read)", std::string(65536, 'x')},
  };
  std::printf("diagnose scan, median ns per line over %ld lines each:\n", lines);
  for (const auto& [name, text] : cases) std::printf("  %-32s %8.1f ns\n", name, median_ns(text, lines));
  return 0;
}
