#include "jgrid/screen/screen.hpp"

#include <algorithm>

#include "jgrid/util/json_writer.hpp"
#include "screen/rules.hpp"

namespace jgrid::screen {

namespace {

void add_fixes(const std::vector<Check>& checks, std::string_view status, std::vector<std::string>& out) {
  for (const auto& check : checks)
    if (check.status == status && !check.fix.empty() && std::find(out.begin(), out.end(), check.fix) == out.end())
      out.push_back(check.fix);
}

}  // namespace

bool Screening::blocked() const {
  return std::any_of(checks.begin(), checks.end(), [](const Check& check) { return check.status == "block"; });
}

std::vector<std::string> Screening::blocked_rules() const {
  std::vector<std::string> out;
  for (const auto& check : checks)
    if (check.status == "block") out.push_back(check.rule);
  return out;
}

std::vector<std::string> Screening::fixes() const {
  std::vector<std::string> out;
  add_fixes(checks, "block", out);
  add_fixes(checks, "warn", out);
  return out;
}

std::vector<Check> Screening::warnings() const {
  std::vector<Check> out;
  for (const auto& check : checks)
    if (check.status == "warn") out.push_back(check);
  return out;
}

std::string metadata_source(const ImageMetadata& image) {
  if (image.source.empty()) return "name only";
  return image.known || image.source.rfind("name only", 0) == 0 ? image.source : "name only";
}

Screening screen(const model::JobSpec& spec, const ImageMetadata& image, const ScreenOptions& options) {
  Facts facts = gather_facts(spec, image, options);
  Screening out;
  out.checks.reserve(rule_table().size());
  for (const Rule& rule : rule_table()) {
    out.checks.push_back(rule.check(facts));
    out.checks.back().rule = rule.id;
  }
  out.intent = std::move(facts.intent);
  return out;
}

Intent detect_intent(const model::JobSpec& spec, const ImageMetadata& image, const ScreenOptions& options) {
  return gather_facts(spec, image, options).intent;
}

nlohmann::json check_to_json(const Check& check) {
  return {{"rule", check.rule},
          {"status", check.status},
          {"field", check.field},
          {"message", check.message},
          {"fix", check.fix}};
}

nlohmann::json screening_to_json(const Screening& screening) {
  auto checks = nlohmann::json::array();
  auto warnings = nlohmann::json::array();
  for (const auto& check : screening.checks) {
    checks.push_back(check_to_json(check));
    if (check.status == "warn") warnings.push_back(checks.back());
  }
  return {{"can_submit", !screening.blocked()},
          {"blocked_checks", screening.blocked_rules()},
          {"checks", std::move(checks)},
          {"warnings", std::move(warnings)},
          {"fixes", screening.fixes()}};
}

namespace {

void write_checks(util::JsonWriter& w, const std::vector<Check>& checks, bool warnings_only) {
  w.begin_array();
  for (const auto& check : checks) {
    if (warnings_only && check.status != "warn") continue;
    w.begin_object().key("rule").value(check.rule).key("status").value(check.status);
    w.key("field").value(check.field).key("message").value(check.message).key("fix").value(check.fix);
    w.end_object();
  }
  w.end_array();
}

}  // namespace

std::string job_screening_json(const Screening& screening) {
  std::string out;
  out.reserve(256 * screening.checks.size());
  util::JsonWriter w(out);
  w.begin_object().key("checks");
  write_checks(w, screening.checks, false);
  w.key("warnings");
  write_checks(w, screening.checks, true);
  w.end_object();
  return out;
}

const std::vector<std::string>& rule_ids() {
  static const std::vector<std::string> k_ids = [] {
    std::vector<std::string> ids;
    for (const Rule& rule : rule_table()) ids.emplace_back(rule.id);
    return ids;
  }();
  return k_ids;
}

}  // namespace jgrid::screen
