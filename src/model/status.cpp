#include "jgrid/model/status.hpp"

#include <algorithm>
#include <array>

namespace jgrid::model {
namespace {

using S = JobStatus;

constexpr std::array<std::string_view, 9> k_status_names = {
    "pending", "queued", "assigned", "starting", "running", "completed", "failed", "rejected", "cancelled"};
constexpr std::array<std::string_view, 7> k_phase_names = {
    "queued", "scheduling", "provisioning", "runtime_preparation", "workload_execution", "finalizing", "done"};

// The lifecycle: forward through placement and start, back to queued when a
// node is lost (requeue), and to a terminal status from anywhere live.
const std::vector<std::pair<S, S>> k_transitions = {
    {S::pending, S::queued},    {S::pending, S::rejected},  {S::pending, S::cancelled},
    {S::pending, S::failed},    {S::queued, S::assigned},   {S::queued, S::cancelled},
    {S::queued, S::failed},     {S::queued, S::rejected},   {S::assigned, S::starting},
    {S::assigned, S::queued},   {S::assigned, S::failed},   {S::assigned, S::cancelled},
    {S::assigned, S::rejected}, {S::starting, S::running},  {S::starting, S::queued},
    {S::starting, S::failed},   {S::starting, S::cancelled}, {S::starting, S::rejected},
    {S::running, S::completed}, {S::running, S::failed},    {S::running, S::cancelled},
    {S::running, S::queued},
};

template <std::size_t N>
std::optional<std::size_t> index_of(const std::array<std::string_view, N>& names, std::string_view text) {
  auto it = std::find(names.begin(), names.end(), text);
  if (it == names.end()) return std::nullopt;
  return static_cast<std::size_t>(it - names.begin());
}

}  // namespace

std::string_view to_string(JobStatus status) { return k_status_names[static_cast<std::size_t>(status)]; }
std::string_view to_string(Phase phase) { return k_phase_names[static_cast<std::size_t>(phase)]; }

std::optional<JobStatus> parse_job_status(std::string_view text) {
  auto index = index_of(k_status_names, text);
  if (!index) return std::nullopt;
  return static_cast<JobStatus>(*index);
}

std::optional<Phase> parse_phase(std::string_view text) {
  auto index = index_of(k_phase_names, text);
  if (!index) return std::nullopt;
  return static_cast<Phase>(*index);
}

bool is_terminal(JobStatus status) {
  return status == S::completed || status == S::failed || status == S::rejected || status == S::cancelled;
}

bool can_transition(JobStatus from, JobStatus to) {
  return std::find(k_transitions.begin(), k_transitions.end(), std::pair{from, to}) != k_transitions.end();
}

const std::vector<std::pair<JobStatus, JobStatus>>& allowed_transitions() { return k_transitions; }

const std::vector<JobStatus>& all_statuses() {
  static const std::vector<JobStatus> k_all = {S::pending,   S::queued, S::assigned, S::starting, S::running,
                                               S::completed, S::failed, S::rejected, S::cancelled};
  return k_all;
}

}  // namespace jgrid::model
