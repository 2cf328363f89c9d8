#include "exec/container_run.hpp"

#include <algorithm>

#include "exec/container_engine.hpp"
#include "jgrid/util/strings.hpp"

namespace jgrid::exec {
namespace {

using model::Phase;
using Json = nlohmann::json;

constexpr std::chrono::minutes k_pull_timeout{60};
constexpr std::chrono::minutes k_command_timeout{2};
constexpr std::chrono::milliseconds k_poll{50};
constexpr const char* k_workspace_dirs[] = {"inputs", "scripts", "artifacts"};

RunOutcome failure(const std::string& code, const std::string& message) {
  return RunOutcome{std::nullopt, false, code, message};
}

std::string attach_name(const ContainerOptions& options, bool any_gpu) {
  if (!any_gpu) return "none";
  return options.attach == GpuAttach::cdi ? "cdi" : "devices";
}

// podman: `the container name "x" is already in use`; docker: `Conflict. The
// container name "/x" is already in use`.
bool name_in_use(const CommandResult& result) { return result.err.find("is already in use") != std::string::npos; }

Json string_map_json(const std::map<std::string, std::string>& values) {
  Json out = Json::object();
  for (const auto& [key, value] : values) out[key] = value;
  return out;
}

}  // namespace

ContainerRun::ContainerRun(RunRequest request, RunSink& sink, const ContainerOptions& options, ImageCache& images,
                           std::shared_ptr<util::Clock> clock, Mode mode, LogSkip skip,
                           std::function<void(ContainerRun&)> on_retire)
    : m_request(std::move(request)),
      m_sink(sink),
      m_options(options),
      m_images(images),
      m_clock(std::move(clock)),
      m_mode(mode),
      m_skip(skip),
      m_on_retire(std::move(on_retire)),
      m_name(container_name_for(m_request.job.id)) {
  if (m_request.workspace_dir.empty()) m_request.workspace_dir = options.data_dir / "jobs" / m_request.job.id;
  m_log_file = container_log_path(m_request, options);
  if (mode == Mode::reattach) {
    m_container_made = true;
    // Its container may have been started with other options: the file decides.
    m_log_file = container_log_file(m_request.workspace_dir, job_id());
    std::error_code error;
    if (!std::filesystem::exists(*m_log_file, error)) m_log_file.reset();
  }
}

ContainerRun::~ContainerRun() { join(); }

void ContainerRun::launch() {
  m_thread = std::thread([this] {
    std::optional<RunOutcome> early = m_mode == Mode::start ? begin() : std::nullopt;
    RunOutcome outcome = early ? *early : (stopping() ? RunOutcome{} : follow());
    if (stopping()) {
      clean_up_after_stop();
      if (m_stop.load() == Stop::cancel) discard_log_file();  // detach: a later server reads it
    } else {
      finish(outcome);
      if (m_container_made) remove_container();  // the job's end is reported: off its path
      discard_log_file();
    }
    m_done = true;
  });
}

void ContainerRun::stop(Stop how) {
  Stop expected = Stop::none;
  m_stop.compare_exchange_strong(expected, how);
  if (m_sink_thread.load() == std::this_thread::get_id()) return;  // called from our own sink call
  std::lock_guard wait_for_call_in_flight(m_sink_mutex);
}

void ContainerRun::join() {
  if (m_thread.joinable() && m_thread.get_id() != std::this_thread::get_id()) m_thread.join();
}

void ContainerRun::step(Phase phase, const std::string& type, const std::string& message, Json data) {
  report([&](RunSink& sink) { sink.step(job_id(), phase, type, message, std::move(data)); });
}

std::vector<std::string> ContainerRun::engine_argv(const std::vector<std::string>& args) const {
  std::vector<std::string> argv{m_options.engine};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

Result<CommandResult> ContainerRun::engine(const std::vector<std::string>& args, std::chrono::milliseconds timeout) {
  CommandResult result;
  auto process = StreamedProcess::start(engine_argv(args), [&](const std::string& stream, const std::string& line) {
    (stream == "stdout" ? result.out : result.err) += line + "\n";
  });
  if (!process.ok()) return process.error();
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!process.value()->wait_done(k_poll)) {
    if (stopping() || std::chrono::steady_clock::now() >= deadline) {
      result.timed_out = !stopping();
      process.value()->kill();
      return result;
    }
  }
  result.exit_code = process.value()->exit_code();
  return result;
}

// Steps up to a running container; an outcome when the run ends before that.
std::optional<RunOutcome> ContainerRun::begin() {
  const model::Node& node = m_request.node;
  step(Phase::provisioning, "job.provisioning",
       "Preparing a " + engine_kind(m_options.engine) + " container on " + node.name,
       Json{{"node_id", node.id}, {"node", node.name}, {"engine", engine_kind(m_options.engine)}});
  auto image = obtain_image();
  if (!image.ok()) return failure(image.error().code, image.error().message);
  if (!image->digest.empty()) report([&](RunSink& sink) { sink.image_digest(job_id(), image->digest); });
  step(Phase::provisioning, "job.image_inspected",
       (m_pulled ? "Pulled and inspected image " : "Inspected image ") + image->reference,
       Json{{"image", image->reference},
            {"digest", image->digest},
            {"labels", string_map_json(image->labels)},
            {"env", string_map_json(image->env)},
            {"pulled", m_pulled}});
  if (m_options.screen_image)
    if (auto rejection = m_options.screen_image(m_request.job.spec, image.value()))
      return RunOutcome{std::nullopt, false, "", rejection->message, true, rejection->rule};
  if (auto failed = prepare_workspace()) return failed;
  return run_container();
}

// An image inspected moments ago for another job is not inspected again
// (see ImageCache); a failed run of it drops that entry.
Result<InspectedImage> ContainerRun::obtain_image() {
  if (auto cached = m_images.find(m_request.job.spec->image)) return *cached;
  auto image = inspect_or_pull();
  if (image.ok()) m_images.put(image.value());
  return image;
}

Result<InspectedImage> ContainerRun::inspect_or_pull() {
  const std::string& ref = m_request.job.spec->image;
  auto inspected = engine({"image", "inspect", "--", ref}, k_command_timeout);
  if (inspected.ok() && inspected->exit_code == 0)
    if (auto image = parse_image_inspect(inspected->out, ref)) return *image;
  if (stopping()) return make_error("START_FAILED", "stopped");
  m_pulled = true;
  auto pulled = engine({"pull", "--", ref}, k_pull_timeout);
  if (!pulled.ok()) return make_error("START_FAILED", "cannot run the container engine: " + pulled.error().message);
  if (pulled->exit_code != 0)
    return make_error("IMAGE_PULL_FAILED", engine_failure(m_options.engine, "pull", job_id(), pulled.value()) +
                                               "; " + ref + " is not on this machine: load it first (" +
                                               engine_kind(m_options.engine) + " load -i image.tar, " +
                                               engine_kind(m_options.engine) + " pull from a reachable registry)");
  inspected = engine({"image", "inspect", "--", ref}, k_command_timeout);
  if (inspected.ok() && inspected->exit_code == 0)
    if (auto image = parse_image_inspect(inspected->out, ref)) return *image;
  return make_error("IMAGE_PULL_FAILED",
                    inspected.ok() ? engine_failure(m_options.engine, "image inspect", job_id(), inspected.value())
                                   : inspected.error().message);
}

std::optional<RunOutcome> ContainerRun::prepare_workspace() {
  for (const char* dir : k_workspace_dirs) {
    std::error_code error;
    std::filesystem::create_directories(m_request.workspace_dir / dir, error);
    if (error)
      return failure("START_FAILED", "cannot prepare the workspace of " + job_id() + ": " +
                                         (m_request.workspace_dir / dir).string() + ": " + error.message());
  }
  const model::JobSpec& spec = m_request.job.spec;
  step(Phase::runtime_preparation, "job.inputs_prepared",
       "Workspace ready: " + std::to_string(spec.input_files.size()) + " input(s), " +
           std::to_string(spec.script_files.size()) + " script(s)",
       Json{{"inputs", spec.input_files.size()},
            {"scripts", spec.script_files.size()},
            {"workspace", m_request.workspace_dir.string()}});
  return std::nullopt;
}

std::optional<RunOutcome> ContainerRun::run_container() {
  std::vector<std::string> argv = build_run_argv(m_request, m_options, m_name);
  std::vector<int> indices = m_request.job.placement ? m_request.job.placement->gpu_indices : std::vector<int>{};
  bool any_gpu = std::find(argv.begin(), argv.end(), "--device") != argv.end();
  step(Phase::runtime_preparation, "job.container_starting", "Starting container " + m_name,
       Json{{"argv", mask_env_values(argv)},
            {"container", m_name},
            {"gpu_indices", indices},
            {"attach", attach_name(m_options, any_gpu)}});
  if (stopping()) return RunOutcome{};
  discard_log_file();  // an earlier attempt's: the engine would append to it
  m_container_made = true;
  // Not interruptible: a stop now must find the container made, to remove it.
  auto ran = run_detached(argv);
  if (!ran.ok()) return failure("START_FAILED", "cannot run the container engine: " + ran.error().message);
  if (ran->exit_code != 0) {
    m_images.forget(m_request.job.spec->image);
    // Removed after finished(): a runtime failure leaves a created, never started container.
    return failure("START_FAILED", engine_failure(m_options.engine, "run", job_id(), ran.value()));
  }
  m_running_at_ms = m_clock->now_ms();
  std::string id = util::trim(ran->out);
  step(Phase::workload_execution, "job.running", "Container " + m_name + " running on " + m_request.node.name,
       Json{{"node_id", m_request.node.id},
            {"node", m_request.node.name},
            {"container", m_name},
            {"container_id", id.substr(0, 12)}});
  return std::nullopt;
}

// `run -d`; when a container of that name is still there (an earlier
// attempt of the job left it), that one is removed and `run` tried again.
// Only then: an `rm` before every run would cost each job an engine call.
Result<CommandResult> ContainerRun::run_detached(const std::vector<std::string>& argv) {
  auto ran = run_command(argv, k_command_timeout);
  if (!ran.ok() || ran->exit_code == 0 || !name_in_use(ran.value())) return ran;
  (void)run_command(engine_argv({"rm", "-f", m_name}), k_command_timeout);
  return run_command(argv, k_command_timeout);
}

void ContainerRun::finish(const RunOutcome& outcome) {
  m_on_retire(*this);
  report([&](RunSink& sink) { sink.finished(job_id(), outcome); });
}

void ContainerRun::clean_up_after_stop() {
  if (!m_container_made || m_stop.load() != Stop::cancel) return;
  // Not engine(): that one gives up as soon as a stop is requested.
  (void)run_command(engine_argv({"stop", "-t", std::to_string(m_options.stop_grace_seconds), m_name}));
  (void)run_command(engine_argv({"rm", "-f", m_name}));
}

}  // namespace jgrid::exec
