#include "jgrid/exec/sim_executor.hpp"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "exec/sim_artifacts.hpp"
#include "exec/sim_plan.hpp"
#include "exec/sim_random.hpp"
#include "jgrid/exec/faults.hpp"
#include "jgrid/util/json_members.hpp"
#include "jgrid/util/saturating.hpp"

namespace jgrid::exec {
namespace {

using model::Phase;

// Clock ms between the steps that take no modelled time of their own.
constexpr std::int64_t k_inputs_ms = 200;
constexpr std::int64_t k_container_ms = 300;
constexpr std::int64_t k_running_ms = 500;
enum class Stage { provision, pull, inspect, inputs, container, running, output, finish, interrupt };

struct Run : std::enable_shared_from_this<Run> {
  std::uint64_t id = 0;
  RunRequest request;
  RunSink* sink = nullptr;
  const ImageInfo* image = nullptr;  // catalog entry, or nullptr when unknown
  RunPlan plan;
  std::int64_t pull_ms = 0;          // 0 when the node had the image
  std::int64_t running_at_ms = 0;
  std::size_t next_line = 0;
  bool current = true;  // false once cancelled or ended: its pending timers do nothing (under m_mutex)
};

struct Next {
  std::int64_t due_ms;
  Stage stage;
};

std::string describe_node(const model::Node& node) {
  return node.name + " (" + std::to_string(node.gpu_count) + "× " + model::vendor_display(node.gpu_vendor) + " " +
         node.gpu_model + ", " + node.region + ")";
}

std::string format_mb(double mb) {
  return std::to_string(static_cast<long long>(std::llround(mb))) + " MB";
}

// Every stage runs as a timer of the clock (so a virtual clock drives whole
// runs); a timer whose run was cancelled or ended finds no current run and
// does nothing.
class SimExecutor final : public Executor, public std::enable_shared_from_this<SimExecutor> {
 public:
  SimExecutor(std::shared_ptr<util::Clock> clock, Fleet fleet, SimOutput output)
      : m_clock(std::move(clock)), m_fleet(std::move(fleet)), m_output(output) {}
  ~SimExecutor() override { shutdown(); }

  std::string kind() const override { return "sim"; }
  bool mounts_workspace() const override { return false; }
  Status start(RunRequest request, RunSink& sink) override;
  void cancel(const std::string& job_id) override;
  void shutdown() override;
  FaultBook* faults() override { return &m_faults; }
  void reset() override;

 private:
  using Handler = std::optional<Next> (SimExecutor::*)(Run&, std::int64_t);
  static Handler handler(Stage stage);

  RunPlan plan(const RunRequest& request, SimBehaviour behaviour, std::uint64_t ordinal);
  void fire(const std::weak_ptr<Run>& weak_run, Next next);
  void push(const std::shared_ptr<Run>& run, Next next);
  bool on_timer_thread() const;
  // Takes the run out of m_runs (if it is still there); its timers then do nothing.
  void retire_locked(Run& run);

  // Stage handlers run on the timer thread without the lock: they report to
  // the sink and say when the next stage is due (nullopt: the run is over).
  std::optional<Next> provision(Run& run, std::int64_t at);
  std::optional<Next> pull(Run& run, std::int64_t at);
  std::optional<Next> inspect(Run& run, std::int64_t at);
  std::optional<Next> inputs(Run& run, std::int64_t at);
  std::optional<Next> container(Run& run, std::int64_t at);
  std::optional<Next> running(Run& run, std::int64_t at);
  std::optional<Next> output(Run& run, std::int64_t at);
  std::optional<Next> finish(Run& run, std::int64_t at);
  std::optional<Next> interrupt(Run& run, std::int64_t at);
  void print_at_end(Run& run);

  std::shared_ptr<util::Clock> m_clock;
  const Fleet m_fleet;
  const SimOutput m_output;
  FaultBook m_faults;
  mutable std::mutex m_mutex;
  std::condition_variable m_idle;  // a stage handler returned
  std::unordered_map<std::string, std::shared_ptr<Run>> m_runs;  // by job id
  std::map<std::pair<std::string, std::string>, std::int64_t> m_image_ready;  // (node id, image) -> clock ms
  std::uint64_t m_next_run = 0;
  const Run* m_in_flight = nullptr;  // run whose stage handler runs now
  std::thread::id m_timer_thread;  // the thread that runs handlers
  bool m_stopping = false;
};

SimExecutor::Handler SimExecutor::handler(Stage stage) {
  static constexpr Handler k_handlers[] = {&SimExecutor::provision, &SimExecutor::pull,      &SimExecutor::inspect,
                                           &SimExecutor::inputs,    &SimExecutor::container, &SimExecutor::running,
                                           &SimExecutor::output,    &SimExecutor::finish,    &SimExecutor::interrupt};
  return k_handlers[static_cast<std::size_t>(stage)];
}

Status SimExecutor::start(RunRequest request, RunSink& sink) {
  auto run = std::make_shared<Run>();
  run->request = std::move(request);
  const std::string& job_id = run->request.job.id;
  run->image = m_fleet.find_image(run->request.job.spec->image);
  auto behaviour = resolve_behaviour(run->request.job.spec->sim, run->image ? run->image->sim : Json());
  if (!behaviour.ok()) return make_error("START_FAILED", "cannot start " + job_id + ": " + behaviour.error().message);
  run->sink = &sink;
  std::lock_guard lock(m_mutex);
  if (m_stopping) return make_error("START_FAILED", "cannot start " + job_id + ": the simulated fleet is shut down");
  if (m_runs.count(job_id)) return make_error("START_FAILED", "cannot start " + job_id + ": it is already running");
  run->id = ++m_next_run;
  run->plan = plan(run->request, behaviour.value(), run->id);
  m_runs[job_id] = run;
  push(run, {m_clock->now_ms(), Stage::provision});
  return Ok{};
}

void SimExecutor::cancel(const std::string& job_id) {
  std::unique_lock lock(m_mutex);
  if (auto it = m_runs.find(job_id); it != m_runs.end()) {
    std::shared_ptr<Run> run = it->second;  // alive while it leaves m_runs
    retire_locked(*run);                    // its pending timers do nothing
  }
  if (on_timer_thread()) return;  // called from one of our own sink calls
  // A handler of the job may still run (finish() retires its run first).
  m_idle.wait(lock, [&] { return m_in_flight == nullptr || m_in_flight->request.job.id != job_id; });
}

void SimExecutor::shutdown() {
  std::unique_lock lock(m_mutex);
  m_stopping = true;
  for (auto& [id, run] : m_runs) run->current = false;
  m_runs.clear();
  if (!on_timer_thread()) m_idle.wait(lock, [&] { return m_in_flight == nullptr; });
}

void SimExecutor::reset() {
  std::lock_guard lock(m_mutex);
  m_image_ready.clear();
}

bool SimExecutor::on_timer_thread() const {
  return m_in_flight != nullptr && std::this_thread::get_id() == m_timer_thread;
}

void SimExecutor::retire_locked(Run& run) {
  if (!run.current) return;
  run.current = false;
  m_runs.erase(run.request.job.id);
}

// A timer holds its run weakly: one retired and released costs its pending
// timers nothing but a failed lock.
void SimExecutor::push(const std::shared_ptr<Run>& run, Next next) {
  m_clock->schedule(next.due_ms, [weak_self = weak_from_this(), weak_run = std::weak_ptr<Run>(run), next] {
    if (auto self = weak_self.lock()) self->fire(weak_run, next);
  });
}

void SimExecutor::fire(const std::weak_ptr<Run>& weak_run, Next next) {
  std::unique_lock lock(m_mutex);
  std::shared_ptr<Run> run = weak_run.lock();
  if (!run || !run->current) return;  // cancelled or finished
  m_in_flight = run.get();
  m_timer_thread = std::this_thread::get_id();
  lock.unlock();
  std::optional<Next> after = (this->*handler(next.stage))(*run, next.due_ms);
  lock.lock();
  m_in_flight = nullptr;
  if (after && run->current) push(run, *after);
  m_idle.notify_all();
}

// The outcome when the node cuts a run short (`effect`: node_lost,
// ecc_error or preempt).
RunOutcome interruption(const std::string& effect, const std::string& node) {
  RunOutcome cut;
  cut.failure_code = "NODE_LOST";
  if (effect == "node_lost") {
    cut.message = cut.lost_reason = "node lost: " + node + " stopped responding";
    cut.node_status = "offline";
  } else if (effect == "ecc_error") {
    cut.message = cut.lost_reason = "uncorrectable ECC error on " + node + ": node drained";
    cut.node_status = "draining";
  } else {
    cut.message = "preempted: " + node + " was reclaimed";
    cut.lost_reason = cut.message + " (a preemption uses no attempt)";
    cut.preempted = true;
  }
  return cut;
}

// The run's plan with the faults it drew: rules of the chaos API and the
// pool's rates change the behaviour (start, exit, OOM, speed) before the
// plan and the pull and interruptions after it.
RunPlan SimExecutor::plan(const RunRequest& request, SimBehaviour behaviour, std::uint64_t ordinal) {
  std::uint64_t seed = mix_seed(m_fleet.seed, ordinal);
  auto pool_it = m_fleet.faults.find(request.node.pool);
  const PoolFaults* pool = pool_it == m_fleet.faults.end() ? nullptr : &pool_it->second;
  RunFaults faults = m_faults.draw(request.node, request.job.id, pool, seed);
  behaviour.fail_start = behaviour.fail_start || faults.fail_start;
  behaviour.oom = behaviour.oom || faults.oom;
  if (faults.exit_code) behaviour.exit_code = *faults.exit_code;
  if (!faults.failure.empty()) behaviour.failure = faults.failure;
  behaviour.slow_factor *= faults.slow_factor;
  RunPlan plan = plan_run(request, behaviour, seed, m_output);
  if (faults.pull_fails && !plan.fail_start) {
    plan.pull_fails = true;
    plan.artifacts.clear();  // nothing ran
    plan.outcome = {std::nullopt, false, "IMAGE_PULL_FAILED",
                    "failed to pull " + request.job.spec->image + " on " + request.node.name + ": injected fault"};
  } else if (!plan.fail_start) {
    if (pool) draw_pool_interrupt(faults, *pool, request.node.pool, static_cast<double>(plan.run_ms) / 1000.0, seed);
    if (!faults.interrupt.empty() && plan.run_ms > 0) {
      std::int64_t after =
          faults.interrupt_after_s ? util::seconds_to_ms_saturated(*faults.interrupt_after_s) : plan.run_ms / 2;
      plan.interrupt_ms = std::clamp<std::int64_t>(after, 0, plan.run_ms - 1);
      plan.interrupt = interruption(faults.interrupt, request.node.name);
    }
  }
  plan.faults = std::move(faults.rules);
  return plan;
}

std::optional<Next> SimExecutor::provision(Run& run, std::int64_t at) {
  const model::Node& node = run.request.node;
  run.sink->step(run.request.job.id, Phase::provisioning, "job.provisioning", "Provisioning " + describe_node(node),
                 util::JsonMembers()
                     .add("node_id", node.id)
                     .add("node", node.name)
                     .add("provision_s", run.plan.provision_ms / 1000.0)
                     .add("faults", run.plan.faults)
                     .take());
  return Next{util::saturating_add(at, run.plan.provision_ms), Stage::pull};
}

// A node pulls an image once; later runs wait for that pull or find it done.
std::optional<Next> SimExecutor::pull(Run& run, std::int64_t at) {
  const model::Node& node = run.request.node;
  double size_mb = run.image ? run.image->size_mb : ImageInfo{}.size_mb;
  double speed = node.startup.image_pull_mb_per_s > 0 ? node.startup.image_pull_mb_per_s
                                                     : model::NodeStartup{}.image_pull_mb_per_s;
  std::int64_t pull_ms = util::seconds_to_ms_saturated(size_mb / speed);
  if (run.plan.pull_fails) {
    run.sink->output(run.request.job.id, "stderr", run.plan.outcome.message);
    return finish(run, util::saturating_add(at, pull_ms / 2));
  }
  std::lock_guard lock(m_mutex);
  std::int64_t ready_at =
      m_image_ready.try_emplace({node.id, run.request.job.spec->image}, util::saturating_add(at, pull_ms)).first->second;
  run.pull_ms = std::max<std::int64_t>(0, util::saturating_sub(ready_at, at));
  return Next{util::saturating_add(at, run.pull_ms), Stage::inspect};
}

std::optional<Next> SimExecutor::inspect(Run& run, std::int64_t at) {
  const std::string& job_id = run.request.job.id;
  const std::string& ref = run.request.job.spec->image;
  Json digest = run.image && !run.image->digest.empty() ? Json(run.image->digest) : Json();
  if (digest.is_string()) run.sink->image_digest(job_id, digest.get<std::string>());
  double size_mb = run.image ? run.image->size_mb : ImageInfo{}.size_mb;
  std::string message = run.pull_ms == 0 ? "Image " + ref + " already on the node"
                                         : "Pulled image " + ref + " (" + format_mb(size_mb) + ")";
  run.sink->step(job_id, Phase::provisioning, "job.image_inspected", message,
                 util::JsonMembers()
                     .add("image", ref)
                     .add("digest", std::move(digest))
                     .add("size_mb", size_mb)
                     .add("cached", run.pull_ms == 0)
                     .add("pull_s", run.pull_ms / 1000.0)
                     .take());
  return Next{at + k_inputs_ms, Stage::inputs};
}

std::optional<Next> SimExecutor::inputs(Run& run, std::int64_t at) {
  const model::JobSpec& spec = run.request.job.spec;
  run.sink->step(run.request.job.id, Phase::runtime_preparation, "job.inputs_prepared",
                 "Workspace ready: " + std::to_string(spec.input_files.size()) + " input(s), " +
                     std::to_string(spec.script_files.size()) + " script(s)",
                 util::JsonMembers()
                     .add("inputs", spec.input_files.size())
                     .add("scripts", spec.script_files.size())
                     .take());
  return Next{at + k_container_ms, Stage::container};
}

std::optional<Next> SimExecutor::container(Run& run, std::int64_t at) {
  const model::JobSpec& spec = run.request.job.spec;
  Json::array_t argv{"sim", spec.image};
  argv.reserve(2 + spec.command.size());
  for (const auto& word : spec.command) argv.emplace_back(word);
  run.sink->step(run.request.job.id, Phase::runtime_preparation, "job.container_starting",
                 "Starting container on " + run.request.node.name,
                 util::JsonMembers().add("argv", std::move(argv)).take());
  if (run.plan.fail_start) return finish(run, at);
  return Next{at + k_running_ms, Stage::running};
}

std::optional<Next> SimExecutor::running(Run& run, std::int64_t at) {
  run.running_at_ms = at;
  const model::Node& node = run.request.node;
  run.sink->step(run.request.job.id, Phase::workload_execution, "job.running", "Workload running on " + node.name,
                 util::JsonMembers().add("node_id", node.id).add("node", node.name).take());
  if (run.plan.interrupt_ms) push(run.shared_from_this(), {util::saturating_add(at, *run.plan.interrupt_ms), Stage::interrupt});
  if (m_output == SimOutput::at_end) return Next{util::saturating_add(at, run.plan.run_ms), Stage::finish};
  return Next{at, Stage::output};
}

std::optional<Next> SimExecutor::output(Run& run, std::int64_t at) {
  const auto& lines = run.plan.lines;
  for (; run.next_line < lines.size() && util::saturating_add(run.running_at_ms, lines[run.next_line].offset_ms) <= at;
       ++run.next_line)
    run.sink->output(run.request.job.id, lines[run.next_line].stream, lines[run.next_line].text);
  if (run.next_line < lines.size())
    return Next{util::saturating_add(run.running_at_ms, lines[run.next_line].offset_ms), Stage::output};
  return Next{util::saturating_add(run.running_at_ms, run.plan.run_ms), Stage::finish};
}

std::optional<Next> SimExecutor::finish(Run& run, std::int64_t) {
  const std::string& job_id = run.request.job.id;
  {
    // Retired before finished() so that the sink may start this job again.
    std::lock_guard lock(m_mutex);
    retire_locked(run);
  }
  RunOutcome outcome = run.plan.outcome;
  outcome.may_have_artifacts = !run.plan.artifacts.empty();
  bool ran = run.running_at_ms > 0;  // not a failed pull or start
  if (m_output == SimOutput::at_end && ran && !outcome.failure_code.empty()) print_at_end(run);
  Status written = write_artifacts(run.request.workspace_dir / "artifacts", run.plan.artifacts);
  if (!written.ok()) {
    run.sink->output(job_id, "stderr", "cannot write artifacts: " + written.error().message);
    if (outcome.failure_code.empty()) outcome = {outcome.exit_code, false, "INTERNAL", written.error().message};
  }
  run.sink->finished(job_id, outcome);
  return std::nullopt;
}

// SimOutput::at_end: the lines of a failed run, at once, for its diagnosis.
void SimExecutor::print_at_end(Run& run) {
  std::vector<LogLine> lines;
  lines.reserve(run.plan.lines.size());
  for (const auto& line : run.plan.lines) lines.push_back({line.stream, line.text});
  run.sink->output_lines(run.request.job.id, lines);
}

// The node cut the run short. A lost node takes every run on it down.
std::optional<Next> SimExecutor::interrupt(Run& run, std::int64_t) {
  const RunOutcome& outcome = run.plan.interrupt;
  std::vector<std::shared_ptr<Run>> lost;
  {
    std::lock_guard lock(m_mutex);
    for (const auto& [id, other] : m_runs) {
      bool same_node = other->request.node.id == run.request.node.id;
      if (other.get() == &run || (outcome.node_status == "offline" && same_node)) lost.push_back(other);
    }
    for (const auto& other : lost) retire_locked(*other);
  }
  // In job id order, whatever the order of the hash table: one event order for one input.
  std::sort(lost.begin(), lost.end(), [](const auto& a, const auto& b) { return a->request.job.id < b->request.job.id; });
  for (const auto& other : lost) {
    other->sink->output(other->request.job.id, "stderr", outcome.message);
    other->sink->finished(other->request.job.id, outcome);
  }
  return std::nullopt;
}

}  // namespace

std::shared_ptr<Executor> make_sim_executor(std::shared_ptr<util::Clock> clock, const Fleet& fleet, SimOutput output) {
  return std::make_shared<SimExecutor>(std::move(clock), fleet, output);
}

}  // namespace jgrid::exec
