// On a virtual clock the scheduling pass runs on the clock's timer thread,
// as a timer due now. It then comes after every callback already due at
// this instant and before time moves on, whatever the threads do, and a
// simulated job does not pay a hand-off between two threads at each pass
// (docs/simulation.md §3).
#include "impl.hpp"

namespace jgrid::engine {

// Held while the pass runs, so that close_pass_gate() waits for it; the
// timer may outlive the engine.
struct Engine::Impl::PassGate {
  std::mutex mutex;
  Impl* impl = nullptr;
};

void Engine::Impl::open_pass_gate() {
  if (!m_pass_gate) m_pass_gate = std::make_shared<PassGate>();
  std::lock_guard lock(m_pass_gate->mutex);
  m_pass_gate->impl = this;
}

// Without m_mutex: a running pass takes it.
void Engine::Impl::close_pass_gate() {
  if (!m_pass_gate) return;
  std::lock_guard lock(m_pass_gate->mutex);
  m_pass_gate->impl = nullptr;
}

// One pending pass at most: whatever changes before it runs is in it.
void Engine::Impl::arm_pass_locked() {
  if (m_pass_timer || m_stopping) return;
  if (!m_pass_gate) open_pass_gate();
  m_pass_timer = m_clock->schedule(now(), [gate = m_pass_gate] {
    std::lock_guard lock(gate->mutex);
    if (gate->impl) gate->impl->run_timed_pass();
  });
}

void Engine::Impl::disarm_pass_locked() {
  if (m_pass_timer) m_clock->cancel(*m_pass_timer);
  m_pass_timer.reset();
}

void Engine::Impl::run_timed_pass() {
  std::vector<std::string> launches;
  {
    std::lock_guard lock(m_mutex);
    m_pass_timer.reset();
    if (m_stopping) return;
    launches = schedule_locked();
  }
  for (const auto& id : launches) launch(id);
}

}  // namespace jgrid::engine
