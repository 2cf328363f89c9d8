#pragma once
// The local ROCm executor (docs/rocm.md §4): runs a job as a container on this
// machine's AMD GPUs through `podman` or `docker`, always as an argv vector
// (never a shell, so no job field can inject a command).
//
// A run, in order: job.provisioning → `<engine> image inspect` (pulled first
// when absent) → image_digest + job.image_inspected {image, digest, labels,
// env} → late screening (ContainerOptions::screen_image) → workspace dirs →
// job.inputs_prepared → job.container_starting {argv with env values masked}
// → `<engine> run -d` → job.running → output into output_lines() (the
// container's log file read directly with podman, see container_log_path;
// else `<engine> logs -f` line by line into output()) and `<engine> wait`
// for the exit code → finished() → `<engine> rm` (after the end is reported,
// so the job ends without waiting for it; leftovers of a server that died
// in between are removed at its next start).
// Timeout (spec.timeout_seconds, clock time from job.running) →
// `stop -t <grace>` (`kill` when stop fails) → TIMED_OUT. Cancel → the same
// stop, then `rm -f`, on the run's thread after cancel() returned. The
// container is named jgrid-<job_id> and labelled io.jgrid.job=<job_id>;
// artifacts are written by the workload straight into the bind-mounted
// <workspace>/artifacts.
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "jgrid/exec/executor.hpp"
#include "jgrid/exec/gpu_detect.hpp"
#include "jgrid/util/clock.hpp"

namespace jgrid::exec {

// How the assigned GPUs are given to a container.
enum class GpuAttach {
  auto_detect,  // make_container_executor: cdi when an AMD CDI spec exists, else devices
  devices,      // --device <dev>/kfd --device <dev>/dri/renderD<minor> per GPU
  cdi,          // --device amd.com/gpu=<index> per GPU
};

// What `<engine> image inspect` says about an image (for late screening).
struct InspectedImage {
  std::string reference;                      // as asked
  std::string id;                             // engine's image id
  std::string digest;                         // "sha256:…": repo digest, else the image id
  std::map<std::string, std::string> labels;  // Config.Labels
  std::map<std::string, std::string> env;     // Config.Env split at the first '='
};

// Late screening's verdict on an inspected image: the blocking rule and why.
struct ImageRejection {
  std::string rule;  // e.g. "image.cuda_metadata"
  std::string message;
};
// Called on the run's own thread; must be thread-safe. nullopt: the run goes on.
using ImageScreen = std::function<std::optional<ImageRejection>(const model::JobSpec&, const InspectedImage&)>;

struct ContainerOptions {
  std::string engine = "podman";         // "podman" | "docker", or a path to one
  std::vector<std::string> engine_args;  // placed right after `run` (docs/rocm.md §4.1)
  bool gpu_optional = false;             // with no usable GPU: run without any device flag
  LocalGpuReport gpus;                   // detect_local_gpus(); kfd_path and render nodes come from it
  std::filesystem::path data_dir;        // used only when a RunRequest has no workspace_dir
  GpuAttach attach = GpuAttach::auto_detect;
  std::vector<std::filesystem::path> cdi_dirs{"/etc/cdi", "/var/run/cdi"};  // where auto_detect looks
  // ":Z" on the bind mounts (SELinux hosts). nullopt: make_container_executor
  // sets it when SELinux is enforcing; build_run_argv reads nullopt as false.
  std::optional<bool> selinux_relabel;
  ImageScreen screen_image;     // empty: no late screening
  int stop_grace_seconds = 10;  // `stop -t` on cancel, timeout and shutdown
  // shutdown(): true leaves containers running (to reattach() after a
  // restart); false stops and removes them.
  bool keep_containers_on_shutdown = false;
};

// "jgrid-<job_id>".
std::string container_name_for(const std::string& job_id);

// "<workspace_dir>/jgrid-<job_id>.log": where a job's container output is
// written when the executor has the engine write it to a file.
std::filesystem::path container_log_file(const std::filesystem::path& workspace_dir, const std::string& job_id);

// The file the engine is told to write the container's output to, which the
// executor then follows itself: container_log_file() of the job's workspace
// with podman (its k8s-file log driver). nullopt with docker, and when
// engine_args choose a log driver or log options of their own: the output
// is then followed through `<engine> logs -f`.
std::optional<std::filesystem::path> container_log_path(const RunRequest& request, const ContainerOptions& options);

// The full `run` argv: engine, `run`, engine_args, `-d`, name and labels,
// `--log-driver k8s-file --log-opt path=<file>` when container_log_path()
// gives a file, the three workspace mounts and `-w /workspace`, GPU flags, `--ipc=host`
// (training, fine-tuning, framework vllm-rocm), `-e KEY=VALUE` per job env
// entry then JGRID_JOB_ID, JUNGLE_GRID_JOB_ID and ROCR_VISIBLE_DEVICES (the
// placement's gpu_indices; the job's own values of these three are
// dropped), `--`, the image, the job's command. Pure: reads no file, runs
// nothing. GPUs: the placement's indices looked up in options.gpus (unknown
// ones skipped; start() refuses them). With no GPU attached (gpu_optional
// without GPUs, or no indices) there is no --device, --group-add or
// seccomp flag. Never an NVIDIA flag.
std::vector<std::string> build_run_argv(const RunRequest& request, const ContainerOptions& options,
                                        const std::string& container_name);

// argv with every `-e KEY=VALUE` element of the job's environment turned
// into "KEY=***"; the grid's JGRID_JOB_ID, JUNGLE_GRID_JOB_ID and
// ROCR_VISIBLE_DEVICES keep their values.
std::vector<std::string> mask_env_values(const std::vector<std::string>& argv);

// True when a CDI spec for kind amd.com/gpu is in one of `dirs` (*.json, *.yaml, *.yml).
bool amd_cdi_spec_present(const std::vector<std::filesystem::path>& dirs);

// `<engine> image inspect <image>`; nullopt when the engine does not have it
// locally or cannot be run. Never pulls.
std::optional<InspectedImage> inspect_image(const std::string& engine, const std::string& image);

// "podman" or "docker" for "auto" (the first whose `version` answers), the
// name itself otherwise after checking it answers. Error ENGINE_UNAVAILABLE
// with one line saying why and what to install.
Result<std::string> resolve_engine(const std::string& requested);

// A container left by jgrid (label io.jgrid.job).
struct JobContainer {
  std::string job_id;
  std::string name;
  std::string state;  // the engine's State.Status: "running", "exited", "created", …
};

// Every container labelled io.jgrid.job, running or not. Error
// ENGINE_UNAVAILABLE when the engine cannot be run or fails.
Result<std::vector<JobContainer>> list_job_containers(const std::string& engine);

// Thread-safe. The Executor contract holds: after cancel() returns, or after
// finished(), no sink call comes for that job. Destruction = shutdown().
class ContainerExecutor : public Executor {
 public:
  // Follows the container of a job an earlier server started: output (minus
  // `skip`), then its exit, reported to `sink` like a run begun by start()
  // from job.running on (no step is reported again). The timeout counts from
  // request.job.started_ms. Errors: NOT_FOUND when no container jgrid-<id>
  // exists; START_FAILED when the job is already followed or the engine fails.
  Status reattach(const RunRequest& request, RunSink& sink, LogSkip skip) override = 0;
  // list_job_containers() with this executor's engine.
  virtual Result<std::vector<JobContainer>> job_containers() const = 0;
  // `rm -f jgrid-<job_id>` (for containers of jobs that will not be
  // reattached), and its log file in <data_dir>/jobs/<job_id>. A missing
  // container is not an error; Error
  // ENGINE_UNAVAILABLE when the engine fails.
  virtual Status remove_container(const std::string& job_id) = 0;
  // The options in force (auto fields resolved).
  virtual const ContainerOptions& options() const = 0;
};

// kind() is the engine's base name ("podman"). Resolves options.attach when
// auto_detect and options.selinux_relabel when nullopt. Timers read `clock`.
std::shared_ptr<ContainerExecutor> make_container_executor(ContainerOptions options,
                                                           std::shared_ptr<util::Clock> clock);

}  // namespace jgrid::exec
