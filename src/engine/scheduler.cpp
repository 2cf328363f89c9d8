#include <pthread.h>

#include <algorithm>
#include <chrono>

#include "impl.hpp"
#include "lifecycle.hpp"

namespace jgrid::engine {
namespace {

constexpr auto k_tick = std::chrono::milliseconds(200);

// Nodes held for a starving job look full to the jobs queued behind it.
std::vector<model::Node> hide_reserved(std::vector<model::Node> nodes, const std::set<std::string>& reserved) {
  for (auto& node : nodes)
    if (reserved.count(node.id)) node.gpus_free = 0;
  return nodes;
}

// Keeps this pass's snapshot in step with the reservation just made.
void take_gpus(std::vector<model::Node>& nodes, const model::Placement& placement) {
  for (auto& node : nodes) {
    if (node.id != placement.node_id) continue;
    node.gpus_free -= placement.gpu_count;
    ++node.running_jobs;
    if (node.gpus_free <= 0 && node.status == model::NodeStatus::online) node.status = model::NodeStatus::busy;
  }
}

void count_bypass(const std::vector<LiveJob*>& waiting, const std::string& node_id) {
  for (LiveJob* earlier : waiting)
    if (earlier->eligible_nodes.count(node_id)) ++earlier->bypassed;
}

std::string gpu_list(const std::vector<int>& indices) {
  std::string text;
  for (int index : indices) text += (text.empty() ? "" : ",") + std::to_string(index);
  return text;
}

}  // namespace

// The "engine loop" thread: a scheduling pass whenever something changed
// (submit, finish, cancel, start), delay checks on every tick.
void Engine::Impl::run_loop() {
  pthread_setname_np(pthread_self(), "engine loop");
  std::unique_lock lock(m_mutex);
  while (!m_stopping) {
    m_wake_cv.wait_for(lock, k_tick, [&] { return m_wake || m_stopping; });
    if (m_stopping) break;
    std::vector<std::string> launches;
    if (std::exchange(m_wake, false)) launches = schedule_locked();
    tick_locked();
    if (launches.empty()) continue;
    lock.unlock();
    for (const auto& id : launches) launch(id);
    lock.lock();
  }
}

// One pass over the queue in priority-then-FIFO order. A job that cannot be
// placed records why; once it has been passed over k_max_bypasses times by
// later jobs on nodes it waits for, those nodes are held for it (hidden from
// every job behind it) until it is placed: a large job is not starved by a
// stream of small ones. Jobs ahead of it are not held back.
std::vector<std::string> Engine::Impl::schedule_locked() {
  std::vector<std::string> launches;
  if (m_queue.size() == 0) return launches;
  std::vector<model::Node> nodes = m_pool.snapshot();
  std::set<std::string> reserved;
  std::vector<LiveJob*> waiting;
  store::WriteBatch batch;
  for (const auto& id : m_queue.ordered()) {
    LiveJob& live = m_live.at(id);
    auto route = route::place(live.job.spec, reserved.empty() ? nodes : hide_reserved(nodes, reserved), m_fleet.seed);
    if (!route.placement) {
      note_waiting_locked(live, route, batch);
      waiting.push_back(&live);
      if (live.bypassed >= k_max_bypasses) reserved.insert(live.eligible_nodes.begin(), live.eligible_nodes.end());
      continue;
    }
    count_bypass(waiting, route.placement->node_id);
    take_gpus(nodes, *route.placement);
    assign_locked(live, std::move(*route.placement), batch);
    launches.push_back(id);
  }
  enqueue_locked(std::move(batch));
  return launches;
}

void Engine::Impl::assign_locked(LiveJob& live, model::Placement placement, store::WriteBatch& batch) {
  model::Job& job = live.job;
  placement.gpu_indices = m_pool.reserve(placement.node_id, placement.gpu_count);
  live.holds_gpus = true;
  job.placement = placement;
  ++job.attempts;
  job.delay.reset();  // only queue delays can be set while queued
  live.capacity_waiting = live.phase_delayed = false;
  live.bypassed = 0;
  live.eligible_nodes.clear();
  m_queue.remove(job.id);
  (void)move_status(job, model::JobStatus::assigned, now());
  enter_phase(job, model::Phase::scheduling, now());
  job.status_message = "assigned to " + placement.node_name;
  m_recorder.event(live, batch,
                   {"job.route_selected", "router",
                    "Selected " + placement.node_name + " (" + placement.gpu_model + "): " + placement.reason,
                    {{"node_id", placement.node_id}, {"node_name", placement.node_name},
                     {"gpu_model", placement.gpu_model}, {"score", placement.score},
                     {"candidates", placement.candidates}, {"reason", placement.reason}}});
  m_recorder.event(live, batch,
                   {"job.assigned", "scheduler",
                    "Assigned to " + placement.node_name + ", GPU " + gpu_list(placement.gpu_indices) +
                        " (attempt " + std::to_string(job.attempts) + ")",
                    {{"node_id", placement.node_id}, {"gpu_indices", placement.gpu_indices}, {"attempt", job.attempts}}});
  stage_locked(live, batch);
}

// Records the wait once per wait: the delay reason and one job.capacity_waiting event.
void Engine::Impl::note_waiting_locked(LiveJob& live, const route::RouteResult& route, store::WriteBatch& batch) {
  live.eligible_nodes.clear();
  for (const auto& candidate : route.candidates)
    if (candidate.fits_when_empty) live.eligible_nodes.insert(candidate.node_id);
  if (live.capacity_waiting) return;
  live.capacity_waiting = true;
  live.job.delay = model::DelayReason{"CAPACITY_UNAVAILABLE", route.explanation};
  live.job.status_message = route.explanation;
  m_recorder.event(live, batch,
                   {"job.capacity_waiting", "scheduler", route.explanation,
                    {{"route_status", route::to_string(route.status)}, {"reason", route.explanation}}});
  stage_locked(live, batch);
}

}  // namespace jgrid::engine
