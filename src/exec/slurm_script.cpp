#include "exec/slurm_script.hpp"

#include <cmath>

#include "jgrid/exec/container_executor.hpp"

namespace jgrid::exec {
namespace {

using Argv = std::vector<std::string>;

std::string quoted_words(const Argv& words) {
  std::string text;
  for (const auto& word : words) text += (text.empty() ? "" : " ") + shell_quote(word);
  return text;
}

// The container argv of the local executor, minus what only the compute
// node knows (the GPUs): split at "--" into flags and image + command.
std::pair<Argv, Argv> container_argv(const RunRequest& request, const SlurmOptions& options) {
  ContainerOptions container;
  container.engine = options.engine;
  container.engine_args = options.engine_args;
  container.selinux_relabel = false;
  RunRequest without_gpus = request;
  if (without_gpus.job.placement) without_gpus.job.placement->gpu_indices.clear();
  Argv argv = build_run_argv(without_gpus, container, slurm_job_name(request.job.id));
  Argv flags, rest;
  bool after = false;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    if (!after && argv[i] == "--") after = true;
    if (after) {
      if (argv[i] != "--" || !rest.empty()) rest.push_back(argv[i]);
      continue;
    }
    if (argv[i] == "-e" && i + 1 < argv.size() && argv[i + 1].rfind("ROCR_VISIBLE_DEVICES=", 0) == 0) {
      ++i;
      continue;
    }
    flags.push_back(argv[i]);
  }
  return {flags, rest};
}

// Sets `indices` to Slurm's GPU indices of this job ("0,1"): SLURM_JOB_GPUS
// (set when the GRES files are device files, without a process), else the
// IDX of `scontrol show job -d` (IDX:0-1,3), ranges expanded.
constexpr const char* k_gpu_indices = R"SH(
find_gpu_indices() {
  indices="${SLURM_JOB_GPUS:-}"
  [ -n "$indices" ] && return
  local idx part
  idx=$(scontrol show job -d "${SLURM_JOB_ID:-}" 2>/dev/null | grep -o 'GRES=[^ ]*(IDX:[^)]*)' | head -n1 | sed 's/.*IDX://; s/)//')
  for part in ${idx//,/ }; do
    case "$part" in
      *-*) indices="$indices,$(seq -s, "${part%-*}" "${part#*-}")" ;;
      *) indices="$indices,$part" ;;
    esac
  done
  indices="${indices#,}"
}
)SH";

// Device flags for the indices; sets gpu_flags and visible.
constexpr const char* k_gpu_flags = R"SH(
find_gpu_indices
gpu_flags=()
visible=""
if [ -n "$indices" ]; then
  missing=""
  if [ -e /dev/kfd ]; then gpu_flags+=(--device /dev/kfd); else missing=" /dev/kfd"; fi
  count=0
  for i in ${indices//,/ }; do
    dev="/dev/dri/renderD$((render_base + i))"
    if [ -e "$dev" ]; then
      gpu_flags+=(--device "$dev")
      visible="$visible,$count"
      count=$((count + 1))
    else
      missing="$missing $dev"
    fi
  done
  visible="${visible#,}"
  if [ -n "$missing" ]; then
    if [ "$gpu_optional" = 1 ]; then
      echo "jgrid-local: not on $HOSTNAME:$missing; running without them (gpu_optional)" >&2
    else
      echo "jgrid-local: GPU device(s)$missing not found on $HOSTNAME for Slurm GPU indices $indices: check gres.conf (File=/dev/dri/renderD* or AutoDetect=rsmi)" >&2
      exit 98
    fi
  fi
  for dev in /dev/kfd /dev/dri/renderD*; do
    [ -e "$dev" ] && gpu_flags+=(--group-add "$(stat -c %g "$dev")")
  done
  [ ${#gpu_flags[@]} -gt 0 ] && gpu_flags+=(--security-opt seccomp=unconfined)
fi
)SH";

// With docker (no k8s-file driver), the same log format is written from
// `docker logs -f -t`: one line per write, so the two streams interleave
// whole lines.
constexpr const char* k_docker_log = R"SH(
if [ "$(basename "$engine")" = docker ]; then
  "$engine" logs -f -t "$name" > >(sed -u 's/^\([^ ]*\) /\1 stdout F /' >>"$log_file") \
    2> >(sed -u 's/^\([^ ]*\) /\1 stderr F /' >>"$log_file") &
fi
)SH";

// `run` first: a container of the same name (left by an earlier attempt on
// this node) is removed only when `run` fails, which saves an engine call
// on every run. The digest is asked for in the background: the `running`
// marker is what the server waits for.
constexpr const char* k_run = R"SH(
cleanup() {
  "$engine" stop -t "$grace" "$name" >/dev/null 2>&1 || "$engine" kill "$name" >/dev/null 2>&1
  "$engine" rm -f "$name" >/dev/null 2>&1
}
trap 'cleanup; exit 143' TERM INT
run_container() {
  "${run[@]}" "${gpu_flags[@]}" -e "ROCR_VISIBLE_DEVICES=$visible" -e "JGRID_SLURM_GPUS=$indices" -- "${workload[@]}" >/dev/null
}
if ! run_container; then
  "$engine" rm -f "$name" >/dev/null 2>&1
  if ! run_container; then
    echo "jgrid-local: $engine run failed on $HOSTNAME" >&2
    "$engine" rm -f "$name" >/dev/null 2>&1
    exit 99
  fi
fi
: >"$state/running"
( { "$engine" container inspect --format '{{.ImageDigest}}' "$name" 2>/dev/null ||
    "$engine" container inspect --format '{{.Image}}' "$name" 2>/dev/null; } >"$state/digest.tmp" &&
  mv "$state/digest.tmp" "$state/digest" ) &
)SH";

constexpr const char* k_wait = R"SH(
"$engine" wait "$name" >"$state/exit.tmp" &
wait $!
code=$(head -n1 "$state/exit.tmp")
mv "$state/exit.tmp" "$state/exit"
"$engine" rm -f "$name" >/dev/null 2>&1
exit "${code:-1}"
)SH";

}  // namespace

std::filesystem::path slurm_state_dir(const std::filesystem::path& workspace_dir) { return workspace_dir / "slurm"; }

std::filesystem::path slurm_script_output(const std::filesystem::path& workspace_dir) {
  return slurm_state_dir(workspace_dir) / "script.out";
}

std::string slurm_job_name(const std::string& job_id) { return container_name_for(job_id); }

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string slurm_time_limit(double timeout_seconds) {
  if (timeout_seconds <= 0) return "";
  return std::to_string(static_cast<long long>(std::ceil(timeout_seconds / 60.0)));
}

std::vector<std::string> sbatch_argv(const RunRequest& request, const std::filesystem::path& script) {
  const model::Node& node = request.node;
  int gpus = request.job.placement ? request.job.placement->gpu_count : 1;
  auto gres_type = node.labels.find("slurm.gres_type");
  std::string gres = "gpu:" + (gres_type != node.labels.end() ? gres_type->second + ":" : "") + std::to_string(gpus);
  Argv argv{"sbatch",  "--parsable", "--job-name", slurm_job_name(request.job.id), "--partition", node.pool,
            "--nodelist", node.name,  "-N1",        "-n1",                          "--gres=" + gres};
  std::string limit = slurm_time_limit(request.job.spec->timeout_seconds.value_or(0));
  if (!limit.empty()) argv.insert(argv.end(), {"--time", limit});
  argv.insert(argv.end(), {"--no-requeue", "--output", slurm_script_output(request.workspace_dir).string(), "--chdir",
                           request.workspace_dir.string(), script.string()});
  return argv;
}

std::string batch_script(const RunRequest& request, const SlurmOptions& options) {
  auto [run, workload] = container_argv(request, options);
  const std::filesystem::path& workspace = request.workspace_dir;
  std::string script = "#!/bin/bash\n# jgrid-local job " + request.job.id + " (written by jgrid-local)\nset -u\n";
  script += "workspace=" + shell_quote(workspace.string()) + "\n";
  script += "state=" + shell_quote(slurm_state_dir(workspace).string()) + "\n";
  // The server's sign that Slurm started the job; a builtin, no process.
  script += "{ : >\"$state/started\"; } 2>/dev/null\n";
  script += "log_file=" + shell_quote(container_log_file(workspace, request.job.id).string()) + "\n";
  script += "name=" + shell_quote(slurm_job_name(request.job.id)) + "\n";
  script += "engine=" + shell_quote(options.engine) + "\n";
  script += "grace=" + std::to_string(options.stop_grace_seconds) + "\n";
  script += "render_base=" + std::to_string(options.render_node_base) + "\n";
  script += std::string("gpu_optional=") + (options.gpu_optional ? "1" : "0") + "\n";
  script += "run=(" + quoted_words(run) + ")\n";
  script += "workload=(" + quoted_words(workload) + ")\n";
  script += "if [ ! -d \"$workspace/artifacts\" ]; then\n"
            "  echo \"jgrid-local: $workspace is not visible on $HOSTNAME: mount the data dir at the same path on "
            "every compute node\" >&2\n  exit 97\nfi\n";
  script += k_gpu_indices;
  script += k_gpu_flags;
  script += k_run;
  script += k_docker_log;
  script += k_wait;
  return script;
}

}  // namespace jgrid::exec
