#include "jgrid/exec/container_executor.hpp"

#include <algorithm>

#include "exec/container_engine.hpp"
#include "exec/container_image_cache.hpp"
#include "exec/container_run.hpp"

namespace jgrid::exec {
namespace {

using Stop = ContainerRun::Stop;

Error start_failed(const std::string& job_id, const std::string& why) {
  return make_error("START_FAILED", "cannot start " + job_id + ": " + why);
}

bool has_gpu(const LocalGpuReport& report, int index) {
  return std::any_of(report.gpus.begin(), report.gpus.end(), [&](const LocalGpu& gpu) { return gpu.index == index; });
}

ContainerOptions resolved(ContainerOptions options) {
  if (options.attach == GpuAttach::auto_detect)
    options.attach = amd_cdi_spec_present(options.cdi_dirs) ? GpuAttach::cdi : GpuAttach::devices;
  if (!options.selinux_relabel) options.selinux_relabel = selinux_enforcing();
  return options;
}

class ContainerExecutorImpl final : public ContainerExecutor {
 public:
  ContainerExecutorImpl(ContainerOptions options, std::shared_ptr<util::Clock> clock)
      : m_options(resolved(std::move(options))), m_clock(std::move(clock)) {}
  ~ContainerExecutorImpl() override { shutdown(); }

  std::string kind() const override { return engine_kind(m_options.engine); }
  Status start(RunRequest request, RunSink& sink) override;
  void cancel(const std::string& job_id) override;
  void shutdown() override;
  bool outlives_server() const override { return true; }
  Status reattach(const RunRequest& request, RunSink& sink, LogSkip skip) override;
  Result<std::vector<JobContainer>> job_containers() const override { return list_job_containers(m_options.engine); }
  Status remove_container(const std::string& job_id) override;
  const ContainerOptions& options() const override { return m_options; }

 private:
  Status check_gpus(const RunRequest& request) const;
  Status launch(const RunRequest& request, RunSink& sink, ContainerRun::Mode mode, LogSkip skip);
  void retire(ContainerRun& run);
  void join_done_locked();

  const ContainerOptions m_options;
  std::shared_ptr<util::Clock> m_clock;
  ImageCache m_images;
  std::mutex m_mutex;
  std::map<std::string, std::shared_ptr<ContainerRun>> m_active;  // by job id
  std::vector<std::shared_ptr<ContainerRun>> m_retired;           // finishing or stopped, not joined yet
  bool m_stopping = false;
};

Status ContainerExecutorImpl::check_gpus(const RunRequest& request) const {
  const LocalGpuReport& gpus = m_options.gpus;
  if (!m_options.gpu_optional && !gpus.usable())
    return start_failed(request.job.id, "no usable AMD GPU on this machine: " +
                                            (gpus.problems.empty() ? "none detected" : gpus.problems.front()));
  if (gpus.gpus.empty() || !request.job.placement) return Ok{};
  for (int index : request.job.placement->gpu_indices)
    if (!has_gpu(gpus, index))
      return start_failed(request.job.id, "GPU index " + std::to_string(index) + " is not on this machine (" +
                                              std::to_string(gpus.gpus.size()) + " GPUs)");
  return Ok{};
}

Status ContainerExecutorImpl::start(RunRequest request, RunSink& sink) {
  if (request.job.spec->image.empty()) return start_failed(request.job.id, "the job has no image");
  if (!on_path(m_options.engine)) return start_failed(request.job.id, m_options.engine + " not found on PATH");
  if (Status gpus = check_gpus(request); !gpus.ok()) return gpus;
  return launch(request, sink, ContainerRun::Mode::start, {});
}

Status ContainerExecutorImpl::reattach(const RunRequest& request, RunSink& sink, LogSkip skip) {
  const std::string name = container_name_for(request.job.id);
  auto found = run_command({m_options.engine, "container", "inspect", "--format", "{{.State.Status}}", name});
  if (!found.ok())
    return make_error("START_FAILED", "cannot reattach " + request.job.id + ": " + found.error().message);
  if (found->exit_code != 0)
    return make_error("NOT_FOUND", "no container " + name + " for " + request.job.id + ": " + found->last_error_line());
  return launch(request, sink, ContainerRun::Mode::reattach, skip);
}

Status ContainerExecutorImpl::launch(const RunRequest& request, RunSink& sink, ContainerRun::Mode mode, LogSkip skip) {
  std::lock_guard lock(m_mutex);
  join_done_locked();
  if (m_stopping) return start_failed(request.job.id, "the local executor is shut down");
  if (m_active.count(request.job.id)) return start_failed(request.job.id, "it is already running");
  auto run = std::make_shared<ContainerRun>(request, sink, m_options, m_images, m_clock, mode, skip,
                                            [this](ContainerRun& done) { retire(done); });
  m_active[request.job.id] = run;
  run->launch();
  return Ok{};
}

// Before finished(): the sink may start the same job again from there.
void ContainerExecutorImpl::retire(ContainerRun& run) {
  std::lock_guard lock(m_mutex);
  auto it = m_active.find(run.job_id());
  if (it == m_active.end() || it->second.get() != &run) return;
  m_retired.push_back(it->second);
  m_active.erase(it);
}

void ContainerExecutorImpl::cancel(const std::string& job_id) {
  std::vector<std::shared_ptr<ContainerRun>> runs;
  {
    std::lock_guard lock(m_mutex);
    if (auto it = m_active.find(job_id); it != m_active.end()) {
      m_retired.push_back(it->second);
      m_active.erase(it);
    }
    for (const auto& run : m_retired)
      if (run->job_id() == job_id && !run->done()) runs.push_back(run);
  }
  for (const auto& run : runs) run->stop(Stop::cancel);  // a retired run may still be in finished()
}

void ContainerExecutorImpl::shutdown() {
  std::vector<std::shared_ptr<ContainerRun>> runs;
  {
    std::lock_guard lock(m_mutex);
    m_stopping = true;
    for (auto& [id, run] : m_active) m_retired.push_back(run);
    m_active.clear();
    runs.swap(m_retired);
  }
  for (const auto& run : runs) run->stop(m_options.keep_containers_on_shutdown ? Stop::detach : Stop::cancel);
  for (const auto& run : runs) run->join();
}

Status ContainerExecutorImpl::remove_container(const std::string& job_id) {
  auto removed = run_command({m_options.engine, "rm", "-f", container_name_for(job_id)});
  if (!removed.ok()) return make_error("ENGINE_UNAVAILABLE", removed.error().message);
  if (removed->exit_code != 0)
    return make_error("ENGINE_UNAVAILABLE", engine_failure(m_options.engine, "rm", job_id, removed.value()));
  std::error_code ignored;
  if (!m_options.data_dir.empty())
    std::filesystem::remove(container_log_file(m_options.data_dir / "jobs" / job_id, job_id), ignored);
  return Ok{};
}

void ContainerExecutorImpl::join_done_locked() {
  auto done = std::stable_partition(m_retired.begin(), m_retired.end(), [](const auto& run) { return !run->done(); });
  for (auto it = done; it != m_retired.end(); ++it) (*it)->join();
  m_retired.erase(done, m_retired.end());
}

}  // namespace

std::shared_ptr<ContainerExecutor> make_container_executor(ContainerOptions options,
                                                           std::shared_ptr<util::Clock> clock) {
  return std::make_shared<ContainerExecutorImpl>(std::move(options), std::move(clock));
}

}  // namespace jgrid::exec
