#pragma once
// Table-driven rule tests: a case is a base request, an edit, and the status
// (and optionally field and fix text) one rule must report.
#include <catch2/catch.hpp>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "screen_fixtures.hpp"

namespace jgrid::screen::testing {

enum class Base { rocm, undeclared, nvidia };

struct RuleCase {
  std::string name;
  std::string rule;
  std::string status;  // pass | warn | block
  Base base;
  std::function<void(model::JobSpec&, ImageMetadata&)> edit;
  std::string field = {};         // checked when not empty
  std::string fix_contains = {};  // checked when not empty
};

// Edits of a case: one field of the request or of the image metadata.
inline auto with_image(std::string ref) {
  return [ref](model::JobSpec& spec, ImageMetadata&) { spec.image = ref; };
}
inline auto with_command(std::vector<std::string> command) {
  return [command](model::JobSpec& spec, ImageMetadata&) { spec.command = command; };
}
inline auto with_env(std::string key, std::string value) {
  return [key, value](model::JobSpec& spec, ImageMetadata&) { spec.environment[key] = value; };
}
inline auto with_label(std::string key, std::string value) {
  return [key, value](model::JobSpec& spec, ImageMetadata&) { spec.labels[key] = value; };
}
inline auto with_image_env(std::string key, std::string value) {
  return [key, value](model::JobSpec&, ImageMetadata& image) {
    image.known = true;
    image.env[key] = value;
  };
}
inline auto with_image_label(std::string key, std::string value) {
  return [key, value](model::JobSpec&, ImageMetadata& image) {
    image.known = true;
    image.labels[key] = value;
  };
}

inline model::JobSpec base_request(Base base) {
  switch (base) {
    case Base::rocm:
      return example_request();
    case Base::undeclared:
      return undeclared_request();
    case Base::nvidia:
      return nvidia_request();
  }
  return {};
}

inline void run_case(const RuleCase& c) {
  INFO(c.name);
  model::JobSpec spec = base_request(c.base);
  ImageMetadata image;
  if (c.edit) c.edit(spec, image);
  Screening screening = screen(spec, image);
  const Check& check = check_of(screening, c.rule);
  INFO(check.message);
  CHECK(check.status == c.status);
  if (!c.field.empty()) CHECK(check.field == c.field);
  if (!c.fix_contains.empty()) CHECK(check.fix.find(c.fix_contains) != std::string::npos);
  if (c.status != "pass") CHECK_FALSE(check.message.empty());
  if (c.status != "pass") CHECK_FALSE(check.fix.empty());
}

// Every rule in `rules` has a pass case and a case with `failing_status`.
inline void require_coverage(const std::vector<RuleCase>& cases, const std::vector<std::string>& rules,
                             const std::string& failing_status) {
  for (const auto& rule : rules) {
    std::set<std::string> statuses;
    for (const auto& c : cases)
      if (c.rule == rule) statuses.insert(c.status);
    INFO(rule);
    CHECK(statuses.count("pass") == 1);
    CHECK(statuses.count(failing_status) == 1);
  }
}

}  // namespace jgrid::screen::testing
