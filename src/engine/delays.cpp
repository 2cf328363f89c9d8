// Delay thresholds (docs/api.md §3.2) as clock timers, and the periodic write of
// output tails.
#include <chrono>

#include "impl.hpp"
#include "jgrid/util/json_members.hpp"
#include "jgrid/util/saturating.hpp"
#include "lifecycle.hpp"

namespace jgrid::engine {
namespace {

constexpr std::int64_t k_tail_write_every_ms = 1000;  // real time

std::int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

// Runs on every tick of the engine loop: the job documents whose tails moved
// since they were last written, about once a second of real time (this is
// persistence, not simulated behaviour, so it does not follow the clock).
// Visits every live job, so at most once per k_tail_write_every_ms however
// often the loop wakes: a burst of submits onto a long queue must not pay
// O(live jobs) each.
void Engine::Impl::tick_locked() {
  if (steady_ms() - m_last_tail_write_ms < k_tail_write_every_ms) return;
  m_last_tail_write_ms = steady_ms();
  store::WriteBatch batch;
  for (auto& [id, live] : m_live)
    if (live.tails_dirty) stage_locked(live, batch);
  enqueue_locked(std::move(batch));
}

// One timer per job at most, due at the earliest threshold the job may
// still reach. A phase with a threshold keeps a timer pending from an
// earlier phase (its due time is no later); when it fires it re-arms itself
// for the job's phase by then. Only a phase without a threshold (or the
// job's end) cancels it. A simulated job thus makes one timer rather than a
// timer and a cancel per phase.
void Engine::Impl::arm_delay_locked(LiveJob& live) {
  auto due = delay_due_ms(live);
  if (!due) return disarm_delay_locked(live);
  if (live.delay_timer.token == 0) live.delay_timer = m_delay_timers.arm(live.job.id, *due);
}

void Engine::Impl::disarm_delay_locked(LiveJob& live) { m_delay_timers.disarm(live.delay_timer); }

// A job adopted after a restart whose delay reason already names its phase
// was flagged in that phase: it is not flagged twice.
std::optional<std::int64_t> Engine::Impl::delay_due_ms(const LiveJob& live) const {
  const model::Job& job = live.job;
  if (m_options.delay_threshold_ms <= 0) return std::nullopt;
  std::string code = delay_code(job.phase);
  if (code.empty() || (job.delay && job.delay->code == code)) return std::nullopt;
  return util::saturating_add(job.phase_started_ms, m_options.delay_threshold_ms);
}

// A token other than the job's current one belongs to a timer since
// cancelled. A timer armed in an earlier phase re-arms for the current one.
void Engine::Impl::delay_due(const std::string& job_id, std::uint64_t token) {
  std::lock_guard lock(m_mutex);
  LiveJob* live = find_live_locked(job_id);
  if (!live || live->delay_timer.token != token || m_stopping) return;
  live->delay_timer = DelayTimers::Armed{};  // fired: once per phase
  auto due = delay_due_ms(*live);
  if (!due) return;
  if (*due > now()) {
    live->delay_timer = m_delay_timers.arm(live->job.id, *due);
    return;
  }
  store::WriteBatch batch;
  flag_delayed_locked(*live, batch);
  enqueue_locked(std::move(batch));
}

// delayed_start, a delay reason unless one (capacity) already explains the
// wait, and a job.delayed event.
void Engine::Impl::flag_delayed_locked(LiveJob& live, store::WriteBatch& batch) {
  model::Job& job = live.job;
  std::string code = delay_code(job.phase);
  if (live.cancelling || code.empty()) return;
  std::string phase(model::to_string(job.phase));
  std::int64_t elapsed = now() - job.phase_started_ms;
  std::string message = "job has been in " + phase + " for " + format_duration(elapsed) + " (threshold " +
                        format_duration(m_options.delay_threshold_ms) + ")";
  job.delayed_start = true;
  if (!job.delay) job.delay = model::DelayReason{code, message};
  m_recorder.event(live, batch,
                   {"job.delayed", "scheduler", message,
                    util::JsonMembers()
                        .add("code", code)
                        .add("phase", phase)
                        .add("threshold_s", m_options.delay_threshold_ms / 1000.0)
                        .add("elapsed_s", elapsed / 1000.0)
                        .take(),
                    "warning"});
  stage_locked(live, batch);
}

}  // namespace jgrid::engine
