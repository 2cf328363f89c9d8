#include "screening.hpp"

#include <chrono>

#include "engine_metrics.hpp"

namespace jgrid::engine {
namespace {

using model::Json;

Json checks_json(const std::vector<screen::Check>& checks) {
  Json out = Json::array();
  for (const auto& check : checks) out.push_back(screen::check_to_json(check));
  return out;
}

std::vector<std::string> rules_of(const std::vector<screen::Check>& checks) {
  std::vector<std::string> rules;
  for (const auto& check : checks) rules.push_back(check.rule);
  return rules;
}

Json intent_json(const screen::Intent& intent) {
  return {{"gpu_vendor", intent.vendor.empty() ? "any" : intent.vendor},
          {"runtime", intent.runtime.empty() ? "auto" : intent.runtime},
          {"confidence", intent.confidence},
          {"unknown_cuda_heavy", intent.unknown_cuda_heavy},
          {"unknown_stack", intent.unknown_stack},
          {"image_source", intent.image_source}};
}

}  // namespace

screen::ImageMetadata image_metadata(const exec::Fleet& fleet, const std::string& image) {
  const exec::ImageInfo* info = fleet.find_image(image);
  if (!info) return {};
  return screen::ImageMetadata{info->labels, info->env, info->digest, true, info->source};
}

screen::ScreenOptions screen_options(const exec::Fleet& fleet) {
  return screen::ScreenOptions{fleet.unknown_stack_any_vendor};
}

screen::Screening screen_spec(const exec::Fleet& fleet, const model::JobSpec& spec) {
  return screen_with(spec, image_metadata(fleet, spec.image), screen_options(fleet));
}

screen::Screening screen_with(const model::JobSpec& spec, const screen::ImageMetadata& image,
                              const screen::ScreenOptions& options) {
  auto started = std::chrono::steady_clock::now();
  auto screening = screen::screen(spec, image, options);
  record_screening(screening, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  return screening;
}

std::string join_rules(const std::vector<std::string>& rules) {
  std::string text;
  for (const auto& rule : rules) text += (text.empty() ? "" : ", ") + rule;
  return text;
}

Error screening_error(const screen::Screening& screening) {
  auto blocked = screening.blocked_rules();
  return make_error(
      "SCREENING_REJECTED", "screening blocked the workload: " + join_rules(blocked),
      {{"blocked_checks", blocked}, {"checks", checks_json(screening.checks)}, {"fixes", screening.fixes()}});
}

EventSpec screened_event(const screen::Screening& screening) {
  auto warnings = rules_of(screening.warnings());
  std::string checks = std::to_string(screening.checks.size()) + " checks";
  std::string message = warnings.empty() ? "Screening passed: " + checks
                                         : "Screening passed with warnings (" + join_rules(warnings) + "): " + checks;
  return {"job.screened",
          "screener",
          message,
          {{"checks", screening.checks.size()}, {"warnings", warnings}, {"intent", intent_json(screening.intent)}},
          warnings.empty() ? "info" : "warning"};
}

}  // namespace jgrid::engine
