// Threads: "slurm submitter" (sbatch in start() order, so start() returns
// at once), "slurm tracker" (slurm_tracking.cpp), "slurm nodes"
// (slurm_node_watch.cpp).
#include <algorithm>
#include <fstream>

#include "exec/slurm_executor_impl.hpp"
#include "exec/slurm_script.hpp"
#include "jgrid/exec/container_executor.hpp"
#include "jgrid/util/log.hpp"

namespace jgrid::exec {
namespace {

// Not synced (two fsyncs were up to 25 ms on the submit path): sbatch sends
// Slurm its own copy, and a server that dies before sbatch starts the run
// again with a new script.
Status write_batch_script(const std::filesystem::path& path, const std::string& text) {
  std::error_code ec;
  std::filesystem::remove(path, ec);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  std::filesystem::permissions(path, std::filesystem::perms::owner_all, ec);
  if (!out || ec) return make_error("IO_ERROR", "cannot write " + path.string());
  return Ok{};
}

}  // namespace

SlurmExecutor::SlurmExecutor(SlurmOptions options, std::vector<SlurmNode> nodes, std::shared_ptr<util::Clock> clock)
    : m_options(std::move(options)), m_clock(std::move(clock)) {
  for (auto& node : nodes) m_nodes.emplace(node.node.id, std::move(node));
  m_submitter = std::thread([this] { submit_loop(); });
  m_tracker = std::thread([this] { track_loop(); });
}

SlurmExecutor::~SlurmExecutor() { shutdown(); }

Status SlurmExecutor::start(RunRequest request, RunSink& sink) {
  const auto state = slurm_state_dir(request.workspace_dir);
  std::error_code ec;
  std::filesystem::create_directories(state, ec);
  if (ec) return make_error("START_FAILED", "cannot create " + state.string() + ": " + ec.message());
  // What an earlier attempt of the job left would read as this one's.
  for (const char* left : {"started", "running", "digest", "digest.tmp", "exit", "exit.tmp"}) std::filesystem::remove(state / left, ec);
  std::filesystem::remove(container_log_file(request.workspace_dir, request.job.id), ec);
  Status written = write_batch_script(state / "job.sh", batch_script(request, m_options));
  if (!written) return make_error("START_FAILED", "cannot write the Slurm batch script: " + written.error().message);
  auto run = std::make_shared<SlurmRun>(request, sink, LogSkip{});
  std::lock_guard lock(m_mutex);
  m_runs[request.job.id] = run;
  m_to_submit.push_back(run);
  m_wake.notify_all();
  return Ok{};
}

void SlurmExecutor::submit_loop() {
  std::unique_lock lock(m_mutex);
  while (true) {
    m_wake.wait(lock, [&] { return m_stopping || !m_to_submit.empty(); });
    if (m_stopping) return;
    RunPtr run = m_to_submit.front();
    m_to_submit.pop_front();
    lock.unlock();
    submit(run);
    lock.lock();
  }
}

// A cancel that came while sbatch ran finds no id: the Slurm job is
// cancelled here instead.
void SlurmExecutor::submit(const RunPtr& run) {
  const RunRequest& request = run->request;
  auto id = slurm_submit(sbatch_argv(request, slurm_state_dir(request.workspace_dir) / "job.sh"));
  if (!id) {
    forget(run->job_id());
    RunOutcome outcome;
    outcome.failure_code = "START_FAILED";
    outcome.message = id.error().message;
    run->report([&](RunSink& sink) { sink.finished(run->job_id(), outcome); });
    return;
  }
  {
    std::lock_guard lock(m_mutex);
    run->slurm_id = *id;
  }
  bool stopped = false;
  run->report([&](RunSink& sink) {
    sink.scheduler_job_id(run->job_id(), *id);
    sink.step(run->job_id(), model::Phase::provisioning, "job.provisioning",
              "Submitted as Slurm job " + *id + " to partition " + request.node.pool + ", node " + request.node.name,
              {{"slurm_job_id", *id}, {"partition", request.node.pool}, {"node", request.node.name}});
  });
  {
    std::lock_guard lock(run->sink_mutex);
    stopped = run->stopped;
  }
  if (stopped) (void)slurm_cancel(*id);
}

void SlurmExecutor::cancel(const std::string& job_id) {
  RunPtr run;
  std::string slurm_id;
  {
    std::lock_guard lock(m_mutex);
    auto it = m_runs.find(job_id);
    if (it == m_runs.end()) return;
    run = it->second;
    m_runs.erase(it);
    m_to_submit.erase(std::remove(m_to_submit.begin(), m_to_submit.end(), run), m_to_submit.end());
    slurm_id = run->slurm_id;
  }
  run->stop();
  if (slurm_id.empty()) return;
  if (Status cancelled = slurm_cancel(slurm_id); !cancelled)
    util::log(util::LogLevel::warn, "slurm", cancelled.error().message, {{"job_id", job_id}, {"slurm_job_id", slurm_id}});
}

// The Slurm jobs go on; a restarted server reattaches them.
void SlurmExecutor::shutdown() {
  std::map<std::string, RunPtr> runs;
  {
    std::lock_guard lock(m_mutex);
    if (m_stopping && !m_submitter.joinable()) return;
    m_stopping = true;
    m_wake.notify_all();
    runs.swap(m_runs);
    m_to_submit.clear();
  }
  for (auto* thread : {&m_submitter, &m_tracker, &m_node_watcher})
    if (thread->joinable()) thread->join();
  for (auto& [id, run] : runs) run->stop();
}

std::vector<SlurmExecutor::RunPtr> SlurmExecutor::tracked() {
  std::lock_guard lock(m_mutex);
  std::vector<RunPtr> runs;
  for (auto& [id, run] : m_runs)
    if (!run->slurm_id.empty()) runs.push_back(run);
  return runs;
}

void SlurmExecutor::forget(const std::string& job_id) {
  std::lock_guard lock(m_mutex);
  m_runs.erase(job_id);
}

bool SlurmExecutor::sleep_for(std::chrono::milliseconds interval) {
  std::unique_lock lock(m_mutex);
  m_wake.wait_for(lock, interval, [&] { return m_stopping; });
  return !m_stopping;
}

Status SlurmExecutor::reattach(const RunRequest& request, RunSink& sink, LogSkip skip) {
  std::string id = request.job.placement ? request.job.placement->slurm_job_id : "";
  if (id.empty()) {  // sbatch answered but the id was not stored yet: find it by name
    auto rows = slurm_queue();
    if (!rows) return make_error("START_FAILED", rows.error().message);
    for (const auto& row : *rows)
      if (row.name == slurm_job_name(request.job.id)) id = row.id;
  }
  if (id.empty()) return make_error("NOT_FOUND", "no Slurm job named " + slurm_job_name(request.job.id));
  auto known = slurm_job(id);
  if (!known) return make_error("START_FAILED", known.error().message);
  if (*known && (*known)->name != slurm_job_name(request.job.id)) known = std::optional<SlurmJobRow>{};  // id reused
  if (!*known && !std::filesystem::exists(slurm_state_dir(request.workspace_dir) / "exit"))
    return make_error("NOT_FOUND", "Slurm job " + id + " is no longer known to Slurm");
  auto run = std::make_shared<SlurmRun>(request, sink, skip);
  run->slurm_id = id;
  run->starting_reported = request.job.status == model::JobStatus::starting || request.job.status == model::JobStatus::running;
  run->running_reported = request.job.status == model::JobStatus::running;
  run->started_seen = run->starting_reported;
  if (run->running_reported) run->follow_output();
  std::lock_guard lock(m_mutex);
  if (m_runs.count(request.job.id)) return make_error("START_FAILED", "job " + request.job.id + " is already followed");
  m_runs[request.job.id] = run;
  return Ok{};
}

void SlurmExecutor::watch_nodes(NodeSink& sink) {
  std::lock_guard lock(m_mutex);
  if (m_node_sink || m_stopping) return;
  m_node_sink = &sink;
  m_node_watcher = std::thread([this] { node_loop(); });
}

std::shared_ptr<Executor> make_slurm_executor(SlurmOptions options, std::vector<SlurmNode> nodes,
                                              std::shared_ptr<util::Clock> clock) {
  return std::make_shared<SlurmExecutor>(std::move(options), std::move(nodes), std::move(clock));
}

}  // namespace jgrid::exec
