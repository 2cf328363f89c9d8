#include "exec/slurm_run.hpp"

#include <algorithm>

#include "jgrid/exec/container_executor.hpp"

namespace jgrid::exec {

void SlurmRun::stop() {
  {
    std::lock_guard lock(sink_mutex);
    stopped = true;
  }
  std::lock_guard lock(m_follower_mutex);
  if (m_follower) m_follower->abandon();
}

void SlurmRun::follow_output() {
  std::lock_guard lock(m_follower_mutex);
  if (m_follower) return;
  m_follower = std::make_unique<LogFileFollower>(container_log_file(request.workspace_dir, request.job.id),
                                                 [this](std::vector<LogLine>& lines) { deliver(lines); });
}

void SlurmRun::finish_output() {
  follow_output();  // a run that ended between two polls was never followed
  std::lock_guard lock(m_follower_mutex);
  m_follower->finish();
}

// Lines an earlier process stored are dropped, per stream, in order.
void SlurmRun::deliver(std::vector<LogLine>& lines) {
  auto kept = std::remove_if(lines.begin(), lines.end(), [this](const LogLine& line) {
    std::size_t& left = line.stream == "stderr" ? skip.stderr_lines : skip.stdout_lines;
    if (left == 0) return false;
    --left;
    return true;
  });
  lines.erase(kept, lines.end());
  if (lines.empty()) return;
  report([&](RunSink& out) { out.output_lines(request.job.id, lines); });
}

}  // namespace jgrid::exec
