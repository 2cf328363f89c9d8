// Node operations, the reset of the simulation (docs/simulation.md §4) and
// waiting for a virtual clock to come to rest.
#include <chrono>
#include <thread>

#include "callback_sender.hpp"
#include "impl.hpp"
#include "jgrid/exec/faults.hpp"

namespace jgrid::engine {
namespace {

constexpr auto k_settle_poll = std::chrono::milliseconds(1);
// A request is answered after this much real time even if the clock still
// moves (a run of millions of timers): settling is for order, not a hang.
constexpr auto k_settle_limit = std::chrono::seconds(30);

const std::map<std::string, model::NodeStatus>& operations() {
  static const std::map<std::string, model::NodeStatus> k_operations = {
      {"drain", model::NodeStatus::draining},
      {"undrain", model::NodeStatus::online},
      {"online", model::NodeStatus::online},
      {"offline", model::NodeStatus::offline},
  };
  return k_operations;
}

}  // namespace

Result<model::Node> Engine::Impl::set_node_status(const std::string& node, const std::string& operation) {
  auto it = operations().find(operation);
  if (it == operations().end())
    return make_error("INVALID_REQUEST", "operation: expected drain, undrain, offline or online, got '" + operation + "'");
  std::string node_id;
  {
    std::lock_guard lock(m_mutex);
    auto found = m_pool.find(node);
    if (!found) found = m_pool.find("node_" + node);
    if (!found) return make_error("NOT_FOUND", "node " + node + " not found");
    node_id = found->id;
    m_pool.set_status(node_id, it->second);
    if (it->second == model::NodeStatus::online) wake_locked();
  }
  if (it->second == model::NodeStatus::offline) lose_jobs_on(node_id, "node lost: " + node + " taken offline");
  std::lock_guard lock(m_mutex);
  return *m_pool.find(node_id);
}

// The runs on the node are stopped (their executor calls are ignored from
// the moment they are marked), then each job is requeued or failed.
void Engine::Impl::lose_jobs_on(const std::string& node_id, const std::string& reason) {
  std::vector<std::pair<std::string, std::shared_ptr<exec::Executor>>> runs;
  {
    std::lock_guard lock(m_mutex);
    auto on_node = [&](const LiveJob& live) {
      return live.launched && !live.cancelling && live.job.placement && live.job.placement->node_id == node_id;
    };
    for (LiveJob* live : m_live.in_id_order(on_node)) {  // one event order for one input
      live->cancelling = true;
      runs.emplace_back(live->job.id, executor_for(live->job));
    }
  }
  for (auto& [id, executor] : runs)
    if (executor) executor->cancel(id);
  std::lock_guard lock(m_mutex);
  store::WriteBatch batch;
  for (auto& [id, executor] : runs) {
    LiveJob* live = find_live_locked(id);
    if (!live) continue;
    live->cancelling = false;
    requeue_or_fail_locked(*live, reason, batch);
  }
  enqueue_locked(std::move(batch));
}

// Live jobs are stopped before anything is deleted, and the deletion runs
// under the mutex with none left: no executor or submit writes a job of
// before afterwards, and none of after is deleted.
Result<ResetReport> Engine::Impl::reset() {
  ResetReport report;
  report.cancelled_jobs = cancel_live_jobs("simulation reset");
  reset_executors();
  std::unique_lock lock(m_mutex);
  while (!m_live.empty()) {  // submitted meanwhile
    lock.unlock();
    report.cancelled_jobs += cancel_live_jobs("simulation reset");
    lock.lock();
  }
  for (const auto& node : m_pool.snapshot())
    if (node.source == "simulated") m_pool.set_status(node.id, model::NodeStatus::online);
  m_history.clear();
  m_recorder.reset_digest();
  wake_locked();
  auto deleted = delete_jobs_locked();
  if (!deleted) return deleted.error();
  report.deleted = *deleted;
  return report;
}

// Until none is left: a job may be ending on its own (CONFLICT) meanwhile.
std::size_t Engine::Impl::cancel_live_jobs(const std::string& reason) {
  std::size_t cancelled = 0;
  for (;;) {
    std::vector<std::pair<std::string, std::string>> jobs;  // id, workspace
    {
      std::lock_guard lock(m_mutex);
      for (const LiveJob* live : m_live.in_id_order()) jobs.emplace_back(live->job.id, live->job.workspace);
    }
    if (jobs.empty()) return cancelled;
    std::size_t before = cancelled;
    for (const auto& [id, workspace] : jobs) cancelled += cancel(id, workspace, reason).ok();
    if (cancelled == before) std::this_thread::yield();
  }
}

// A scheduling pass (real clocks) or a callback delivery pass pending or
// running. A virtual clock's pass is a clock timer: settle() sees it among the
// clock's pending timers, so a test that holds the clock is at rest with it.
bool Engine::Impl::busy() const {
  std::lock_guard lock(m_mutex);
  return m_wake || (m_sender && m_sender->holding());
}

// At rest: no timer callback runs, the engine is not busy, and the clock
// has no timer left or someone else holds it (a test stepping time by hand).
// The count of finished callbacks read before and after shows that none ran
// between the reads, so the three readings belong to one moment.
void Engine::Impl::settle() const {
  if (!m_clock->is_virtual()) return;
  auto deadline = std::chrono::steady_clock::now() + k_settle_limit;
  while (std::chrono::steady_clock::now() < deadline) {
    util::Clock::Rest before = m_clock->rest();
    bool engine_busy = busy();
    util::Clock::Rest after = m_clock->rest();
    bool quiet = !before.callback_running && !after.callback_running && before.callbacks_run == after.callbacks_run;
    if (quiet && !engine_busy && (after.pending == 0 || after.held > 0)) return;
    std::this_thread::sleep_for(k_settle_poll);
  }
}

void Engine::Impl::reset_executors() {
  for (auto& [source, executor] : m_executors) {
    if (!executor) continue;
    if (auto* faults = executor->faults()) faults->clear();
    executor->reset();
  }
}

Result<store::DeletedRows> Engine::Impl::delete_jobs_locked() {
  auto deleted = m_store.delete_all_jobs();
  if (!deleted) return deleted.error();
  if (Status removed = remove_job_files(m_options.data_dir); !removed) return removed.error();
  return deleted;
}

}  // namespace jgrid::engine
