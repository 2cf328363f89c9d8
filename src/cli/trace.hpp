#pragma once
// Trace files of `jgrid-local simulate` (docs/simulation.md §3): JSON Lines, one
// submission per line: {"at_s": 12.5, "job": {…submit body…}} with an
// optional "cancel_at_s", or a fault rule that starts to apply then:
// {"at_s": 600, "fault": {…POST /v1/sim/faults body…}}. Blank lines and lines
// starting with '#' are skipped.
//
// A trace of a million lines must not cost a million decoded jobs of memory:
// every line is checked when the trace is loaded, but only its time and its
// place in the file are kept; its job or fault rule is read and decoded
// again when its turn comes.
#include <cstdint>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "jgrid/exec/faults.hpp"
#include "jgrid/model/job_spec.hpp"
#include "jgrid/util/result.hpp"

namespace jgrid::cli {

struct TraceEntry {
  int line = 0;                       // 1-based line in the file
  double at_s = 0;                    // seconds from the start of the run
  std::optional<double> cancel_at_s;  // job lines
  bool fault = false;                 // a fault line (else a job line)
  std::uint64_t offset = 0;           // of the line in the file
};

class Trace {
 public:
  // Checks every line; the entries come sorted by at_s (file order among
  // equal times). Error INVALID_TRACE "<file>:<line>: <field>: expected …"
  // for the first bad line; nothing is returned half-read.
  static Result<Trace> load(const std::string& path);

  const std::vector<TraceEntry>& entries() const { return m_entries; }
  std::size_t size() const { return m_entries.size(); }

  // The job of a job line, the rule of a fault line, read again from the
  // file. Error INVALID_TRACE when the file changed since it was loaded.
  // Not thread-safe (one read position).
  Result<model::JobSpec> job(const TraceEntry& entry) const;
  Result<exec::FaultRule> fault(const TraceEntry& entry) const;

 private:
  Result<std::string> line_at(const TraceEntry& entry) const;

  std::string m_path;
  std::vector<TraceEntry> m_entries;
  mutable std::ifstream m_file;
};

}  // namespace jgrid::cli
