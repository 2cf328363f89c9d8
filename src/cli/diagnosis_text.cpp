#include "diagnosis_text.hpp"

#include <string>

namespace jgrid::cli {

void print_diagnosis(const nlohmann::json& job, std::ostream& out) {
  auto it = job.find("diagnosis");
  if (it == job.end() || !it->is_object()) return;
  const nlohmann::json& d = *it;
  std::string where;
  if (auto e = d.find("evidence"); e != d.end() && e->is_object())
    where = " [" + e->value("stream", std::string()) + " line " + std::to_string(e->value("line", 0LL)) + "]";
  out << "why        " << d.value("code", std::string()) << ": " << d.value("message", std::string()) << where << "\n";
  out << "fix        " << d.value("fix", std::string()) << "\n";
}

}  // namespace jgrid::cli
