#pragma once
// Job statuses, phases and the one table of allowed status transitions.
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace jgrid::model {

enum class JobStatus { pending, queued, assigned, starting, running, completed, failed, rejected, cancelled };

enum class Phase { queued, scheduling, provisioning, runtime_preparation, workload_execution, finalizing, done };

std::string_view to_string(JobStatus status);
std::string_view to_string(Phase phase);
std::optional<JobStatus> parse_job_status(std::string_view text);
std::optional<Phase> parse_phase(std::string_view text);

// completed, failed, rejected, cancelled. A terminal job never changes again.
bool is_terminal(JobStatus status);

// True when `from -> to` is in the transition table. Everything else is a bug.
bool can_transition(JobStatus from, JobStatus to);

// Every allowed (from, to) pair, for tests and docs.
const std::vector<std::pair<JobStatus, JobStatus>>& allowed_transitions();

const std::vector<JobStatus>& all_statuses();

}  // namespace jgrid::model
