#pragma once
// Following a job's live logs (docs/api.md §2.6) to its end: used by
// `submit --wait/--follow` and `logs -f`.
#include <string>

#include "jgrid/api/client.hpp"
#include "remote.hpp"

namespace jgrid::cli {

struct FollowOptions {
  bool progress = false;       // a status line (phase, elapsed) while it runs
  bool json = false;           // one JSON line per stream event instead of text
  std::string stream = "all";  // stdout | stderr | all: which workload lines to print
  bool summary = true;         // a last line "job … completed (exit 0) after 12s"
};

// The process exit code for a job's end: its exit code when non-zero, 124
// when it timed out, 0 when completed, else 1 (failed, rejected, cancelled).
int exit_code_for(const std::string& status, const Json& exit_code, bool timed_out);

// Streams the job's logs until its terminal event (reconnecting with
// Last-Event-ID when the connection drops) and returns exit_code_for() of
// it. Errors (unknown job, server gone) are reported and give 1.
int follow_job(api::Client& client, const std::string& job_id, const FollowOptions& options);

}  // namespace jgrid::cli
