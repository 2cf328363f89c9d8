#pragma once
// The rule table: one {id, function} line per rule of docs/rocm.md §2 (see the
// table in jgrid/screen/screen.hpp). A rule function reads Facts and returns
// its Check without the rule id; screen() fills that in from the table.
#include <span>
#include <string>
#include <string_view>

#include "screen/facts.hpp"

namespace jgrid::screen {

using RuleFn = Check (*)(const Facts&);

struct Rule {
  std::string_view id;
  RuleFn check;
};

std::span<const Rule> rule_table();

Check pass(std::string field, std::string message);
Check warn(std::string field, std::string message, std::string fix);
Check block(std::string field, std::string message, std::string fix);

// The warning-only rules (warning_rules.cpp).
Check check_env_cuda_visible_devices(const Facts& facts);
Check check_command_torch_cuda(const Facts& facts);
Check check_framework_unknown(const Facts& facts);
Check check_image_unknown_stack(const Facts& facts);
Check check_intent_no_rocm_evidence(const Facts& facts);
Check check_env_hsa_override(const Facts& facts);

}  // namespace jgrid::screen
