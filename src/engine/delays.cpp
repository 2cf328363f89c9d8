#include <chrono>

#include "impl.hpp"
#include "lifecycle.hpp"

namespace jgrid::engine {
namespace {

constexpr std::int64_t k_tail_write_every_ms = 1000;  // real time
constexpr std::int64_t k_delay_check_every_ms = 200;  // real time

std::int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

// Runs on every tick of the engine loop: delay thresholds, and the job
// documents whose tails moved since they were last written (about once a second).
// Visits every live job, so it runs at most every k_delay_check_every_ms
// however often the loop wakes: a burst of submits onto a long queue must not
// pay O(live jobs) each.
void Engine::Impl::tick_locked() {
  if (steady_ms() - m_last_tick_ms < k_delay_check_every_ms) return;
  m_last_tick_ms = steady_ms();
  std::int64_t at = now();
  bool write_tails = steady_ms() - m_last_tail_write_ms >= k_tail_write_every_ms;
  if (write_tails) m_last_tail_write_ms = steady_ms();
  store::WriteBatch batch;
  for (auto& [id, live] : m_live) {
    check_delay_locked(live, at, batch);
    if (write_tails && live.tails_dirty) stage_locked(live, batch);
  }
  enqueue_locked(std::move(batch));
}

// A job in one phase before its workload runs for longer than the threshold
// is flagged once per phase: delayed_start, and a delay reason unless one
// (capacity) already explains the wait.
void Engine::Impl::check_delay_locked(LiveJob& live, std::int64_t at, store::WriteBatch& batch) {
  model::Job& job = live.job;
  if (live.phase_delayed || live.cancelling || m_options.delay_threshold_ms <= 0) return;
  std::int64_t elapsed = at - job.phase_started_ms;
  if (elapsed < m_options.delay_threshold_ms) return;
  live.phase_delayed = true;
  std::string code = delay_code(job.phase);
  if (code.empty()) return;
  job.delayed_start = true;
  if (!job.delay)
    job.delay = model::DelayReason{code, "job has been in " + std::string(model::to_string(job.phase)) + " for " +
                                             format_duration(elapsed) + " (threshold " +
                                             format_duration(m_options.delay_threshold_ms) + ")"};
  stage_locked(live, batch);
}

}  // namespace jgrid::engine
