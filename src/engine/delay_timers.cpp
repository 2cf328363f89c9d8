#include "delay_timers.hpp"

#include <mutex>

namespace jgrid::engine {

struct DelayTimers::Gate {
  std::mutex mutex;  // held while `fire` runs, so close() waits for it
  Fire fire;         // empty once closed
};

DelayTimers::DelayTimers(util::Clock& clock, Fire fire) : m_clock(clock), m_gate(std::make_shared<Gate>()) {
  m_gate->fire = std::move(fire);
}

DelayTimers::~DelayTimers() { close(); }

DelayTimers::Armed DelayTimers::arm(const std::string& job_id, std::int64_t due_ms) {
  std::uint64_t token = ++m_last_token;
  auto timer = m_clock.schedule(due_ms, [gate = m_gate, job_id, token] {
    std::lock_guard lock(gate->mutex);
    if (gate->fire) gate->fire(job_id, token);
  });
  return Armed{timer, token};
}

void DelayTimers::disarm(Armed& armed) {
  if (armed.token == 0) return;
  m_clock.cancel(armed.timer);
  armed = Armed{};
}

void DelayTimers::close() {
  std::lock_guard lock(m_gate->mutex);
  m_gate->fire = nullptr;
}

}  // namespace jgrid::engine
