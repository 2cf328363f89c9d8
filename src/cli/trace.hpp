#pragma once
// Trace files of `jgrid-local simulate` (docs/simulation.md §3): JSON Lines, one
// submission per line: {"at_s": 12.5, "job": {…submit body…}} with an
// optional "cancel_at_s", or a fault rule that starts to apply then:
// {"at_s": 600, "fault": {…POST /v1/sim/faults body…}}. Blank lines and lines
// starting with '#' are skipped.
#include <optional>
#include <string>
#include <vector>

#include "jgrid/exec/faults.hpp"
#include "jgrid/model/job_spec.hpp"
#include "jgrid/util/result.hpp"

namespace jgrid::cli {

struct TraceEntry {
  int line = 0;                        // 1-based line in the file
  double at_s = 0;                     // seconds from the start of the run
  std::optional<double> cancel_at_s;
  model::JobSpec spec;                  // when `fault` is empty
  std::optional<exec::FaultRule> fault;  // a fault line
};

// The entries sorted by at_s (file order among equal times). Error
// INVALID_TRACE "<file>:<line>: <field>: expected …" for the first bad line;
// nothing is returned half-read.
Result<std::vector<TraceEntry>> load_trace(const std::string& path);

}  // namespace jgrid::cli
