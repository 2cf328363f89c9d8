#include <algorithm>

#include "jgrid/exec/container_executor.hpp"

namespace jgrid::exec {
namespace {

using Argv = std::vector<std::string>;

constexpr const char* k_job_label = "io.jgrid.job";

// Workspace dirs: (host subdir, container path, read-only).
struct Mount {
  const char* dir;
  const char* target;
  bool read_only;
};
constexpr Mount k_mounts[] = {{"inputs", "/workspace/inputs", true},
                              {"scripts", "/workspace/scripts", true},
                              {"artifacts", "/workspace/artifacts", false}};

// Variables the grid sets; the job's own values for them are dropped.
bool is_grid_env(const std::string& key) {
  return key == "JGRID_JOB_ID" || key == "JUNGLE_GRID_JOB_ID" || key == "ROCR_VISIBLE_DEVICES";
}

std::filesystem::path workspace_of(const RunRequest& request, const ContainerOptions& options) {
  if (!request.workspace_dir.empty()) return request.workspace_dir;
  return options.data_dir / "jobs" / request.job.id;
}

std::vector<int> assigned_indices(const RunRequest& request) {
  return request.job.placement ? request.job.placement->gpu_indices : std::vector<int>{};
}

std::vector<const LocalGpu*> assigned_gpus(const RunRequest& request, const ContainerOptions& options) {
  std::vector<const LocalGpu*> gpus;
  for (int index : assigned_indices(request)) {
    auto it = std::find_if(options.gpus.gpus.begin(), options.gpus.gpus.end(),
                           [&](const LocalGpu& gpu) { return gpu.index == index; });
    if (it != options.gpus.gpus.end()) gpus.push_back(&*it);
  }
  return gpus;
}

std::string joined_indices(const std::vector<int>& indices) {
  std::string text;
  for (int index : indices) text += (text.empty() ? "" : ",") + std::to_string(index);
  return text;
}

void add(Argv& argv, std::initializer_list<std::string> words) { argv.insert(argv.end(), words); }

void add_mounts(Argv& argv, const std::filesystem::path& workspace, bool relabel) {
  for (const Mount& mount : k_mounts) {
    std::string flags = std::string(mount.read_only ? "ro" : "rw") + (relabel ? ",Z" : "");
    add(argv, {"-v", (workspace / mount.dir).string() + ":" + mount.target + ":" + flags});
  }
  add(argv, {"-w", "/workspace"});
}

void add_devices(Argv& argv, const std::vector<const LocalGpu*>& gpus, const ContainerOptions& options) {
  if (options.attach == GpuAttach::cdi) {
    for (const LocalGpu* gpu : gpus) add(argv, {"--device", "amd.com/gpu=" + std::to_string(gpu->index)});
  } else {
    add(argv, {"--device", options.gpus.kfd_path});
    for (const LocalGpu* gpu : gpus)
      if (!gpu->render_node.empty()) add(argv, {"--device", gpu->render_node});
  }
  for (int gid : {options.gpus.video_gid, options.gpus.render_gid})
    if (gid >= 0) add(argv, {"--group-add", std::to_string(gid)});
  add(argv, {"--security-opt", "seccomp=unconfined"});
}

// Shared memory for multi-process training and vLLM's workers.
bool wants_host_ipc(const model::JobSpec& spec) {
  return spec.workload_type == model::WorkloadType::training ||
         spec.workload_type == model::WorkloadType::fine_tuning || spec.framework == "vllm-rocm";
}

void add_env(Argv& argv, const RunRequest& request) {
  for (const auto& [key, value] : request.job.spec->environment)
    if (!is_grid_env(key)) add(argv, {"-e", key + "=" + value});
  add(argv, {"-e", "JGRID_JOB_ID=" + request.job.id, "-e", "JUNGLE_GRID_JOB_ID=" + request.job.id});
  add(argv, {"-e", "ROCR_VISIBLE_DEVICES=" + joined_indices(assigned_indices(request))});
}

}  // namespace

std::string container_name_for(const std::string& job_id) { return "jgrid-" + job_id; }

std::filesystem::path container_log_file(const std::filesystem::path& workspace_dir, const std::string& job_id) {
  return workspace_dir / (container_name_for(job_id) + ".log");
}

std::optional<std::filesystem::path> container_log_path(const RunRequest& request, const ContainerOptions& options) {
  if (std::filesystem::path(options.engine).filename() != "podman") return std::nullopt;
  for (const auto& arg : options.engine_args)
    if (arg.rfind("--log-driver", 0) == 0 || arg.rfind("--log-opt", 0) == 0) return std::nullopt;
  return container_log_file(workspace_of(request, options), request.job.id);
}

std::vector<std::string> build_run_argv(const RunRequest& request, const ContainerOptions& options,
                                        const std::string& container_name) {
  Argv argv{options.engine, "run"};
  argv.insert(argv.end(), options.engine_args.begin(), options.engine_args.end());
  add(argv, {"-d", "--name", container_name, "--label", std::string(k_job_label) + "=" + request.job.id});
  add(argv, {"--label", "io.jgrid.attempt=" + std::to_string(request.job.attempts)});
  if (auto log_file = container_log_path(request, options))
    add(argv, {"--log-driver", "k8s-file", "--log-opt", "path=" + log_file->string()});
  add_mounts(argv, workspace_of(request, options), options.selinux_relabel.value_or(false));
  auto gpus = assigned_gpus(request, options);
  if (!gpus.empty()) add_devices(argv, gpus, options);
  if (wants_host_ipc(request.job.spec)) add(argv, {"--ipc=host"});
  add_env(argv, request);
  add(argv, {"--", request.job.spec->image});
  argv.insert(argv.end(), request.job.spec->command.begin(), request.job.spec->command.end());
  return argv;
}

std::vector<std::string> mask_env_values(const std::vector<std::string>& argv) {
  Argv masked = argv;
  for (std::size_t i = 0; i + 1 < masked.size(); ++i) {
    if (masked[i] == "--") break;  // the image and the command follow: nothing of ours
    if (masked[i] != "-e") continue;
    std::string& pair = masked[++i];
    std::string key = pair.substr(0, pair.find('='));
    // The grid's own variables (the job's values of these are dropped) are no secret.
    if (key != "JGRID_JOB_ID" && key != "JUNGLE_GRID_JOB_ID" && key != "ROCR_VISIBLE_DEVICES") pair = key + "=***";
  }
  return masked;
}

}  // namespace jgrid::exec
