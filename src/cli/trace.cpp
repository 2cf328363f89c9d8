#include "trace.hpp"

#include <algorithm>
#include <fstream>

namespace jgrid::cli {
namespace {

using Json = nlohmann::json;

Error bad_line(const std::string& path, int line, const std::string& problem) {
  return make_error("INVALID_TRACE", path + ":" + std::to_string(line) + ": " + problem);
}

std::optional<double> seconds(const Json& doc, const char* key) {
  auto it = doc.find(key);
  if (it == doc.end() || !it->is_number() || it->get<double>() < 0) return std::nullopt;
  return it->get<double>();
}

Result<TraceEntry> parse_fault(const std::string& path, int number, const Json& doc, TraceEntry entry) {
  if (doc.contains("job")) return bad_line(path, number, "expected either \"job\" or \"fault\", not both");
  if (!doc["fault"].is_object()) return bad_line(path, number, "fault: expected a fault rule object");
  auto rule = exec::decode_fault_rule(doc["fault"]);
  if (!rule) return bad_line(path, number, "fault." + rule.error().message);
  entry.fault = std::move(*rule);
  return entry;
}

Result<TraceEntry> parse_line(const std::string& path, int number, const std::string& text) {
  Json doc = Json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return bad_line(path, number, "expected a JSON object");
  TraceEntry entry;
  entry.line = number;
  auto at = seconds(doc, "at_s");
  if (!at) return bad_line(path, number, "at_s: expected a number of seconds >= 0");
  entry.at_s = *at;
  if (doc.contains("fault")) return parse_fault(path, number, doc, std::move(entry));
  if (doc.contains("cancel_at_s")) {
    entry.cancel_at_s = seconds(doc, "cancel_at_s");
    if (!entry.cancel_at_s) return bad_line(path, number, "cancel_at_s: expected a number of seconds >= 0");
  }
  if (!doc.contains("job") || !doc["job"].is_object()) return bad_line(path, number, "job: expected a submit body object");
  auto spec = model::decode_job_spec(doc["job"], model::SpecMode::submit);
  if (!spec) return bad_line(path, number, "job." + spec.error().message);
  entry.spec = std::move(*spec);
  return entry;
}

}  // namespace

Result<std::vector<TraceEntry>> load_trace(const std::string& path) {
  std::ifstream in(path);
  if (!in) return make_error("INVALID_TRACE", path + ": cannot be read");
  std::vector<TraceEntry> entries;
  std::string text;
  for (int number = 1; std::getline(in, text); ++number) {
    auto first = text.find_first_not_of(" \t\r");
    if (first == std::string::npos || text[first] == '#') continue;
    auto entry = parse_line(path, number, text);
    if (!entry) return entry.error();
    entries.push_back(std::move(*entry));
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const TraceEntry& a, const TraceEntry& b) { return a.at_s < b.at_s; });
  return entries;
}

}  // namespace jgrid::cli
