#include <pthread.h>

#include <algorithm>
#include <chrono>

#include "engine_metrics.hpp"
#include "impl.hpp"
#include "lifecycle.hpp"
#include "jgrid/util/json_members.hpp"

namespace jgrid::engine {
namespace {

constexpr auto k_tick = std::chrono::milliseconds(200);
// Expired upload slots are swept this often (and once at start).
constexpr std::int64_t k_input_sweep_every_ms = 60 * 1000;

std::int64_t loop_steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void count_bypass(const std::vector<LiveJob*>& heads, std::uint32_t node_class) {
  for (LiveJob* earlier : heads)
    if (std::binary_search(earlier->fitting_classes.begin(), earlier->fitting_classes.end(), node_class))
      ++earlier->bypassed;
}

std::string gpu_list(const std::vector<int>& indices) {
  std::string text;
  for (int index : indices) text += (text.empty() ? "" : ",") + std::to_string(index);
  return text;
}

// Takes the summary out of `route`.
nlohmann::json route_data(route::RouteResult& route) {
  const model::Placement& placement = *route.placement;
  return util::JsonMembers()
      .add("node_id", placement.node_id)
      .add("node_name", placement.node_name)
      .add("gpu_model", placement.gpu_model)
      .add("score", placement.score)
      .add("candidates", placement.candidates)
      .add("runner_up_count", std::max(placement.candidates - 1, 0))
      .add("reason", placement.reason)
      .add("reasons_summary", std::move(route.filtered))
      .take();
}

// A pass places jobs and says why others wait; it prices nothing.
route::RouteRequest pass_request(const LiveJob& live, const SchedulePass& pass) {
  route::RouteRequest request{live.job.spec, live.intent, &pass.held};
  request.describe_likely_node = false;
  return request;
}

}  // namespace

// The "engine loop" thread: on a real clock a scheduling pass whenever
// something changed (submit, finish, cancel, start; on a virtual clock the
// pass is a clock timer, timed_pass.cpp), periodic work on every tick.
void Engine::Impl::run_loop() {
  pthread_setname_np(pthread_self(), "engine loop");
  std::unique_lock lock(m_mutex);
  while (!m_stopping) {
    m_wake_cv.wait_for(lock, k_tick, [&] { return m_wake || m_stopping; });
    if (m_stopping) break;
    std::vector<std::string> launches;
    if (std::exchange(m_wake, false)) launches = schedule_locked();
    tick_locked();
    bool sweep = m_last_input_sweep_ms == 0 || loop_steady_ms() - m_last_input_sweep_ms >= k_input_sweep_every_ms;
    if (sweep) m_last_input_sweep_ms = loop_steady_ms();
    if (!launches.empty() || sweep) {
      lock.unlock();
      for (const auto& id : launches) launch(id);
      if (sweep) sweep_expired_inputs();
      lock.lock();
    }
  }
}

// One pass over the queue in priority-then-FIFO order. A job that cannot be
// placed records why; once it has been passed over k_max_bypasses times by
// later jobs on nodes it waits for, those nodes are held for it (hidden from
// every job behind it) until it is placed: a large job is not starved by a
// stream of small ones. Jobs ahead of it are not held back.
//
// A pass costs O(lanes + placements), not O(queue × nodes): the queue has
// one lane per route key and a lane is left once its first job waits,
// routing goes through the node pool's index, and the pass stops as soon as
// no node has a GPU free. Jobs queued since the last pass that the visit
// did not reach still get their wait recorded.
std::vector<std::string> Engine::Impl::schedule_locked() {
  SchedulePass pass;
  m_queue.visit_lanes([&](const std::string& id) { return visit_locked(m_live.at(id), pass); });
  note_fresh_locked(pass);
  enqueue_locked(std::move(pass.batch));
  return std::move(pass.launches);
}

// Places the first job of a lane or records its wait (and leaves the lane:
// every job behind it asks the router the same question).
JobQueue::Next Engine::Impl::visit_locked(LiveJob& live, SchedulePass& pass) {
  const route::FleetIndex& fleet = m_pool.index();
  if (fleet.max_free("") == 0) return JobQueue::Next::stop;
  if (pass.failed.count(live.route_key)) {
    wait_locked(live, pass, false);
    return JobQueue::Next::other_lanes;
  }
  if (fleet.max_free(live.intent.vendor) < std::max(live.job.spec->gpu_count, 1)) {
    pass.failed.emplace(live.route_key, std::nullopt);
    wait_locked(live, pass, true);
    return JobQueue::Next::other_lanes;
  }
  auto started = std::chrono::steady_clock::now();
  auto route = route::place(pass_request(live, pass), fleet);
  record_route(static_cast<bool>(route.placement), std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  if (!route.placement) {
    pass.failed.emplace(live.route_key, std::move(route));
    wait_locked(live, pass, true);
    return JobQueue::Next::other_lanes;
  }
  count_bypass(pass.heads, fleet.class_of(*fleet.slot_of(route.placement->node_id)));
  pass.launches.push_back(live.job.id);
  assign_locked(live, std::move(route), pass.batch);
  return JobQueue::Next::same_lane;
}

// A job stays queued: its wait is recorded once, the first job of each
// failed key counts the later placements that pass it, and a job passed
// over too often holds the node classes it waits for.
void Engine::Impl::wait_locked(LiveJob& live, SchedulePass& pass, bool head) {
  if (!live.capacity_waiting) note_waiting_locked(live, why_waiting_locked(live, pass), pass.batch);
  if (head) pass.heads.push_back(&live);
  if (live.bypassed >= k_max_bypasses) pass.held.insert(live.fitting_classes.begin(), live.fitting_classes.end());
}

// The route result of the job's key in this pass, routing it when the pass skipped that.
const route::RouteResult& Engine::Impl::why_waiting_locked(LiveJob& live, SchedulePass& pass) {
  auto& slot = pass.failed[live.route_key];
  if (!slot) slot = route::place(pass_request(live, pass), m_pool.index());
  return *slot;
}

void Engine::Impl::note_fresh_locked(SchedulePass& pass) {
  for (const auto& id : m_fresh) {
    LiveJob* live = find_live_locked(id);
    if (live && !live->capacity_waiting && m_queue.contains(id)) wait_locked(*live, pass, false);
  }
  m_fresh.clear();
}

// The route's placement moves into the job.
void Engine::Impl::assign_locked(LiveJob& live, route::RouteResult route, store::WriteBatch& batch) {
  model::Job& job = live.job;
  nlohmann::json selected = route_data(route);
  job.placement = std::move(*route.placement);
  model::Placement& placement = *job.placement;
  placement.gpu_indices = m_pool.reserve(placement.node_id, placement.gpu_count);
  live.holds_gpus = true;
  ++job.attempts;
  job.delay.reset();  // only queue delays can be set while queued
  live.capacity_waiting = false;
  live.bypassed = 0;
  m_queue.remove(job.id);
  (void)move_status(job, model::JobStatus::assigned, now());
  enter_phase(job, model::Phase::scheduling, now());
  arm_delay_locked(live);
  job.status_message = "assigned to " + placement.node_name;
  m_recorder.event(live, batch,
                   {"job.route_selected", "router",
                    "Selected " + placement.node_name + " (" + placement.gpu_model + "): " + placement.reason,
                    std::move(selected)});
  m_recorder.event(live, batch,
                   {"job.assigned", "scheduler",
                    "Assigned to " + placement.node_name + ", GPU " + gpu_list(placement.gpu_indices) +
                        " (attempt " + std::to_string(job.attempts) + ")",
                    util::JsonMembers()
                        .add("node_id", placement.node_id)
                        .add("gpu_indices", placement.gpu_indices)
                        .add("attempt", job.attempts)
                        .take()});
  stage_locked(live, batch);
}

// Records the wait once per wait: the delay reason and one job.capacity_waiting event.
void Engine::Impl::note_waiting_locked(LiveJob& live, const route::RouteResult& route, store::WriteBatch& batch) {
  live.fitting_classes = route.fitting_classes;
  live.capacity_waiting = true;
  live.job.delay = model::DelayReason{"CAPACITY_UNAVAILABLE", route.explanation};
  live.job.status_message = route.explanation;
  m_recorder.event(live, batch,
                   {"job.capacity_waiting", "scheduler", route.explanation,
                    util::JsonMembers()
                        .add("route_status", route::to_string(route.status))
                        .add("reason", route.explanation)
                        .take()});
  stage_locked(live, batch);
}

}  // namespace jgrid::engine
