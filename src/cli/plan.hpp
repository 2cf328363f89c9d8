#pragma once
// Printing an estimate (docs/api.md: POST /v1/jobs/estimate, or a dry-run submit):
// used by `estimate` and `submit --dry-run`.
#include "remote.hpp"

namespace jgrid::cli {

// Prints the plan (the JSON with --json; else the screening table, routing
// candidates and cost) and returns 0 when the job can be submitted, else 1.
int show_plan(const Json& plan, bool json);

}  // namespace jgrid::cli
