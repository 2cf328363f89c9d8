#pragma once
// One job's run on Slurm as the executor tracks it: its Slurm id, what was
// reported, its log follower. Every sink call goes through report(), under
// the run's own mutex, so stop() can promise that no call starts after it
// returns.
#include <atomic>
#include <memory>
#include <mutex>
#include <string>

#include "exec/container_log_follower.hpp"
#include "jgrid/exec/executor.hpp"

namespace jgrid::exec {

struct SlurmRun {
  SlurmRun(RunRequest request, RunSink& sink, LogSkip skip) : request(std::move(request)), sink(sink), skip(skip) {}

  const std::string& job_id() const { return request.job.id; }
  // Calls `call(sink)` unless stopped. Not from within a sink call of this run.
  template <typename Call>
  void report(Call&& call) {
    std::lock_guard lock(sink_mutex);
    if (!stopped) call(sink);
  }
  // After it returns no sink call starts; the follower is abandoned.
  void stop();
  // Starts following the container's log file (once).
  void follow_output();
  // Delivers what is left of the output (the container has ended).
  void finish_output();

  RunRequest request;
  RunSink& sink;
  LogSkip skip;                 // lines already stored (reattach): not reported again
  std::string slurm_id;         // "" until sbatch answered; guarded by the executor's mutex until then
  std::string held_reason;      // last pending reason reported
  std::atomic<bool> started_seen{false};  // the script runs on the node (its `started` marker, or squeue);
                                          // set by the tracker, read by the node watcher
  bool starting_reported = false;
  bool running_reported = false;

  std::mutex sink_mutex;
  bool stopped = false;         // guarded by sink_mutex

 private:
  void deliver(std::vector<LogLine>& lines);
  std::unique_ptr<LogFileFollower> m_follower;  // touched by the tracker thread and stop()
  std::mutex m_follower_mutex;
};

}  // namespace jgrid::exec
