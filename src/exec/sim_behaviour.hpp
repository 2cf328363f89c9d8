#pragma once
// What a simulated run should do: the `sim` object of docs/simulation.md §2, decoded and
// layered (job over image catalog over defaults). Pure.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "exec/json_checker.hpp"

namespace jgrid::exec {

// A `sim` object, decoded. Unset optionals fall back to workload defaults.
struct SimBehaviour {
  std::optional<double> duration_s;
  int exit_code = 0;
  bool fail_start = false, timeout = false, oom = false;
  std::optional<std::vector<std::string>> stdout_lines;  // may hold "{i}" / "{n}"
  std::optional<std::vector<std::string>> stderr_lines;
  double stdout_every_s = 1.0;
  double slow_factor = 1.0;  // durations × this (a `slow` fault)
  std::optional<std::map<std::string, std::string>> artifacts;  // path -> content
  std::string failure;       // a diagnosed failure to act out (sim_failures.hpp), or ""
};

// Overwrites the fields of `out` that `sim` sets; problems go to `checker`
// under `parent` ("sim.exit_code: expected …"). Unknown fields are ignored.
void read_sim(JsonChecker& checker, const Json& sim, const std::string& parent, SimBehaviour& out);

// The job's `sim` over the image catalog's over defaults (either may be
// null). Error START_FAILED naming the bad field.
Result<SimBehaviour> resolve_behaviour(const Json& job_sim, const Json& image_sim);

// "result.json" for "/workspace/artifacts/result.json" (or "result.json");
// nullopt when the path is empty or leaves the artifacts dir.
std::optional<std::string> artifact_relative_path(const std::string& path);

}  // namespace jgrid::exec
