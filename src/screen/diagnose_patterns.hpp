#pragma once
// The table of output patterns behind screen::diagnose (one row per
// pattern). Each row names a literal `needle` that every matching line
// contains, so a line costs a substring search per row, and the regular
// expression runs only on lines that hold the needle.
#include <regex>
#include <string>
#include <vector>

namespace jgrid::screen {

struct DiagnosisPattern {
  std::string code;    // one of diagnosis_codes()
  std::string needle;  // case-sensitive literal
  std::regex regex;    // searched in the line (not anchored)
};

const std::vector<DiagnosisPattern>& diagnosis_patterns();

}  // namespace jgrid::screen
