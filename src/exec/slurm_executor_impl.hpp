#pragma once
// The Slurm executor's insides: the runs it tracks and its three threads
// (named in the .cpp): the submitter (sbatch, in start() order), the
// tracker (the scripts' markers every k_marker_tick; squeue as
// next_squeue_at() says, reporting steps, holds, output and ends) and the
// node watcher (sinfo every options.node_refresh).
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "exec/slurm_cli.hpp"
#include "exec/slurm_polling.hpp"
#include "exec/slurm_run.hpp"
#include "jgrid/exec/slurm_executor.hpp"

namespace jgrid::exec {

class SlurmExecutor final : public Executor {
 public:
  SlurmExecutor(SlurmOptions options, std::vector<SlurmNode> nodes, std::shared_ptr<util::Clock> clock);
  ~SlurmExecutor() override;

  std::string kind() const override { return "slurm"; }
  Status start(RunRequest request, RunSink& sink) override;
  void cancel(const std::string& job_id) override;
  void shutdown() override;
  bool outlives_server() const override { return true; }
  bool queues_runs() const override { return true; }
  Status reattach(const RunRequest& request, RunSink& sink, LogSkip skip) override;
  void watch_nodes(NodeSink& sink) override;

 private:
  using RunPtr = std::shared_ptr<SlurmRun>;

  // slurm_executor.cpp
  void submit_loop();
  void submit(const RunPtr& run);
  std::vector<RunPtr> tracked();
  void forget(const std::string& job_id);
  bool sleep_for(std::chrono::milliseconds interval);

  // slurm_tracking.cpp
  static constexpr std::chrono::milliseconds k_marker_tick{20};
  void track_loop();
  void check_markers(SlurmRun& run);
  void poll(const std::vector<RunPtr>& runs);
  void keep_queue(const std::vector<SlurmJobRow>& rows);
  void observe(SlurmRun& run, const SlurmJobRow& row);
  void observe_active(SlurmRun& run, const SlurmJobRow& row);
  void report_starting(SlurmRun& run, const std::string& node);
  void report_running(SlurmRun& run, const std::string& node);
  void observe_gone(SlurmRun& run);
  void finish(SlurmRun& run, RunOutcome outcome);
  void end(SlurmRun& run, RunOutcome outcome);
  RunOutcome script_failure(SlurmRun& run, RunOutcome outcome);

  // slurm_node_watch.cpp
  void node_loop();
  void refresh_nodes();
  // GPUs of our Slurm jobs running now, by node id; nullopt when squeue fails.
  std::optional<std::map<std::string, int>> our_running_gpus();
  // The tracker's last squeue when squeue_rows_fresh(), else squeue now.
  Result<std::vector<SlurmJobRow>> recent_queue();

  SlurmOptions m_options;
  std::map<std::string, SlurmNode> m_nodes;  // by node id, as first read
  std::shared_ptr<util::Clock> m_clock;

  std::mutex m_mutex;
  std::condition_variable m_wake;
  bool m_stopping = false;
  std::map<std::string, RunPtr> m_runs;  // by job id
  std::deque<RunPtr> m_to_submit;
  NodeSink* m_node_sink = nullptr;
  std::vector<SlurmJobRow> m_queue;  // the tracker's last squeue rows, read at m_queue_at
  SteadyTime m_queue_at;

  std::thread m_submitter, m_tracker, m_node_watcher;
};

}  // namespace jgrid::exec
