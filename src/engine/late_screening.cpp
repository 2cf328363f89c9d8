#include "jgrid/engine/late_screening.hpp"

#include "jgrid/screen/screen.hpp"

namespace jgrid::engine {
namespace {

std::string finding(const screen::Check& check) {
  std::string text = "late screening of the inspected image blocked the workload: " + check.rule + ": " + check.message;
  return check.fix.empty() ? text : text + " (fix: " + check.fix + ")";
}

}  // namespace

std::optional<exec::ImageRejection> late_screen(const model::JobSpec& spec, const exec::InspectedImage& image,
                                                const std::string& node_vendor) {
  screen::ImageMetadata metadata{image.labels, image.env, image.digest, true};
  screen::Screening screening = screen::screen(spec, metadata);
  for (const auto& check : screening.checks)
    if (check.status == "block") return exec::ImageRejection{check.rule, finding(check)};
  const screen::Intent& intent = screening.intent;
  if (intent.unknown_cuda_heavy && !intent.vendor.empty() && intent.vendor != node_vendor)
    for (const auto& check : screening.checks)
      if (check.rule == "intent.unknown_cuda_heavy" && check.status != "pass")
        return exec::ImageRejection{check.rule, finding(check)};
  return std::nullopt;
}

exec::ImageScreen late_screen_hook(const std::string& node_vendor) {
  return [node_vendor](const model::JobSpec& spec, const exec::InspectedImage& image) {
    return late_screen(spec, image, node_vendor);
  };
}

}  // namespace jgrid::engine
