#include "exec/sim_plan.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "exec/sim_failures.hpp"
#include "exec/sim_random.hpp"
#include "jgrid/model/node.hpp"
#include "jgrid/util/saturating.hpp"

namespace jgrid::exec {
namespace {

using model::WorkloadType;

constexpr std::size_t k_max_lines = 10000;
constexpr int k_oom_exit_code = 137;

std::int64_t to_ms(double seconds) { return util::seconds_to_ms_saturated(seconds); }

std::string format_seconds(std::int64_t ms) {
  std::ostringstream out;
  out << static_cast<double>(ms) / 1000.0 << " s";
  return out.str();
}

double base_duration_s(WorkloadType type) {
  switch (type) {
    case WorkloadType::inference: return 8;
    case WorkloadType::batch: return 10;
    case WorkloadType::training:
    case WorkloadType::fine_tuning: return 20;
  }
  return 10;
}

// Bigger models take a little longer (at most twice as long); faster nodes less.
double default_duration_s(const RunRequest& request, Random& random) {
  double size_gb = std::clamp(request.job.spec->model_size_gb.value_or(0.0), 0.0, 100.0);
  double speed = request.node.speed > 0 ? request.node.speed : 1.0;
  return base_duration_s(request.job.spec->workload_type) * (1 + size_gb / 100) * random.uniform(0.9, 1.1) / speed;
}

std::vector<std::string> default_stdout(const RunRequest& request) {
  const model::Node& node = request.node;
  std::string where = std::to_string(std::max(1, request.job.spec->gpu_count)) + "× " +
                      model::vendor_display(node.gpu_vendor) + " " + node.gpu_model + " (" +
                      model::runtime_display(node) + ")";
  switch (request.job.spec->workload_type) {
    case WorkloadType::inference:
      return {"loading model weights", "runtime ready on " + where, "batch {i}/{n} done", "inference complete"};
    case WorkloadType::batch:
      return {"reading inputs on " + where, "processing shard {i}/{n}", "wrote results"};
    case WorkloadType::training:
      return {"initialising training on " + where, "step {i}/{n}", "saving checkpoint", "training complete"};
    case WorkloadType::fine_tuning:
      return {"loading base model on " + where, "fine-tuning step {i}/{n}", "saving adapter", "fine-tuning complete"};
  }
  return {};
}

bool is_template(const std::string& line) {
  return line.find("{i}") != std::string::npos || line.find("{n}") != std::string::npos;
}

std::string substitute(std::string line, std::size_t i, std::size_t n) {
  for (auto [key, value] : {std::pair{"{i}", i}, std::pair{"{n}", n}})
    for (auto at = line.find(key); at != std::string::npos; at = line.find(key, at))
      line.replace(at, 3, std::to_string(value));
  return line;
}

// Lines before the first template and after the last are printed once; the
// block between them repeats (i = 1..n) to fill `slots` lines.
std::vector<std::string> expand(const std::vector<std::string>& lines, std::size_t slots) {
  auto first = std::find_if(lines.begin(), lines.end(), is_template);
  if (first == lines.end()) return lines;
  auto last = std::find_if(lines.rbegin(), lines.rend(), is_template).base();
  std::size_t fixed = lines.size() - static_cast<std::size_t>(last - first);
  std::size_t block = static_cast<std::size_t>(last - first);
  std::size_t n = std::clamp<std::size_t>((slots > fixed ? slots - fixed : 0) / block, 1, k_max_lines / block);
  std::vector<std::string> out(lines.begin(), first);
  for (std::size_t i = 1; i <= n; ++i)
    for (auto it = first; it != last; ++it) out.push_back(substitute(*it, i, n));
  out.insert(out.end(), last, lines.end());
  return out;
}

// One line every `every_ms`, closer together when they would not fit.
void spread(std::vector<OutputLine>& out, const std::vector<std::string>& lines, const std::string& stream,
            std::int64_t duration_ms, std::int64_t every_ms) {
  auto slots = static_cast<std::size_t>(std::max<std::int64_t>(1, duration_ms / std::max<std::int64_t>(1, every_ms)));
  std::vector<std::string> expanded = expand(lines, slots);
  std::int64_t count = static_cast<std::int64_t>(expanded.size());
  std::int64_t step =
      util::saturating_mul(count, every_ms) > duration_ms ? duration_ms / std::max<std::int64_t>(1, count) : every_ms;
  for (std::int64_t k = 0; k < count; ++k)
    out.push_back({util::saturating_mul(k, step), stream, std::move(expanded[static_cast<std::size_t>(k)])});
}

enum class Ending { exited, oom, timed_out };

struct End {
  std::int64_t at_ms;
  Ending how;
};

// The first of: natural exit, OOM half-way, the job's timeout (or, with
// sim.timeout, a hang until the timeout).
End run_end(const RunRequest& request, const SimBehaviour& behaviour, std::int64_t natural_ms) {
  End end{natural_ms, Ending::exited};
  if (behaviour.oom) end = {natural_ms / 2, Ending::oom};
  std::optional<std::int64_t> limit;
  if (request.job.spec->timeout_seconds) limit = to_ms(*request.job.spec->timeout_seconds);
  if (behaviour.timeout) {
    std::int64_t at = limit.value_or(natural_ms);
    if (!behaviour.oom || at <= end.at_ms) end = {at, Ending::timed_out};
  } else if (limit && *limit < end.at_ms) {
    end = {*limit, Ending::timed_out};
  }
  return end;
}

RunOutcome outcome_for(const End& end, int exit_code) {
  RunOutcome outcome;
  if (end.how == Ending::timed_out) {
    outcome.timed_out = true;
    outcome.failure_code = "TIMED_OUT";
    outcome.message = "timed out after " + format_seconds(end.at_ms);
  } else if (end.how == Ending::oom) {
    outcome.exit_code = k_oom_exit_code;
    outcome.failure_code = "OOM";
    outcome.message = "killed: out of GPU memory";
  } else {
    outcome.exit_code = exit_code;
    outcome.failure_code = exit_code == 0 ? "" : "NONZERO_EXIT";
    outcome.message = "exited with code " + std::to_string(exit_code);
  }
  return outcome;
}

std::string failure_line(const RunRequest& request, const RunOutcome& outcome) {
  if (outcome.failure_code == "OOM")
    return (request.node.runtime == "cuda" ? "torch.OutOfMemoryError: CUDA" : "torch.OutOfMemoryError: HIP") +
           std::string(" out of memory. Tried to allocate 2.00 GiB");
  return "error: simulated failure, exiting with code " + std::to_string(outcome.exit_code.value_or(1));
}

void add_output(RunPlan& plan, const RunRequest& request, const SimBehaviour& behaviour, std::int64_t natural_ms,
                SimOutput output) {
  std::int64_t every_ms = std::max<std::int64_t>(1, to_ms(behaviour.stdout_every_s));
  if (behaviour.stdout_lines || output == SimOutput::live)
    spread(plan.lines, behaviour.stdout_lines.value_or(default_stdout(request)), "stdout", natural_ms, every_ms);
  spread(plan.lines, behaviour.stderr_lines.value_or(std::vector<std::string>{}), "stderr", natural_ms, every_ms);
  if (plan.run_ms < natural_ms)
    std::erase_if(plan.lines, [&](const OutputLine& line) { return line.offset_ms >= plan.run_ms; });
  bool crashed = plan.outcome.failure_code == "OOM" || plan.outcome.failure_code == "NONZERO_EXIT";
  if (crashed && !behaviour.stderr_lines)
    plan.lines.push_back({std::max<std::int64_t>(0, plan.run_ms - 1), "stderr", failure_line(request, plan.outcome)});
  std::stable_sort(plan.lines.begin(), plan.lines.end(),
                   [](const OutputLine& a, const OutputLine& b) { return a.offset_ms < b.offset_ms; });
}

// A failure at import or device setup ends the run at once (1 s in); running
// out of memory takes a while (half the run).
std::int64_t failure_end_ms(const std::string& effect, std::int64_t natural_ms) {
  bool late = effect == "hip_out_of_memory" || effect == "oom_killed";
  return std::max<std::int64_t>(1, late ? natural_ms / 2 : std::min<std::int64_t>(natural_ms, 1000));
}

RunOutcome failure_outcome(const SimFailure& failure) {
  RunOutcome outcome;
  outcome.exit_code = failure.exit_code;
  outcome.failure_code = failure.exit_code == 137 ? "OOM" : "NONZERO_EXIT";
  outcome.message = failure.exit_code == 137 ? "killed (exit 137)" : "exited with code " + std::to_string(failure.exit_code);
  return outcome;
}

// Its lines on stderr just before the exit, after whatever the run printed until then.
void add_failure_lines(RunPlan& plan, const SimFailure& failure) {
  std::erase_if(plan.lines, [&](const OutputLine& line) { return line.stream == "stderr" && line.offset_ms >= plan.run_ms - 1; });
  for (const auto& text : failure.lines) plan.lines.push_back({std::max<std::int64_t>(0, plan.run_ms - 1), "stderr", text});
}

std::string default_artifact(const RunRequest& request, const std::string& relative) {
  if (relative.ends_with(".json"))
    return Json{{"job_id", request.job.id}, {"ok", true}, {"artifact", relative}, {"node", request.node.name},
                {"simulated", true}}
               .dump() + "\n";
  return "simulated artifact " + relative + " of " + request.job.id + "\n";
}

// sim.artifacts whenever the workload ran; expected artifacts it did not
// name only when the run succeeded, as a failed workload would not write them.
void add_artifacts(RunPlan& plan, const RunRequest& request, const SimBehaviour& behaviour) {
  for (const auto& [path, content] : behaviour.artifacts.value_or(std::map<std::string, std::string>{}))
    if (auto relative = artifact_relative_path(path)) plan.artifacts[*relative] = content;
  if (!plan.outcome.failure_code.empty()) return;
  for (const auto& path : request.job.spec->expected_artifacts)
    if (auto relative = artifact_relative_path(path); relative && !plan.artifacts.count(*relative))
      plan.artifacts[*relative] = default_artifact(request, *relative);
}

}  // namespace

RunPlan plan_run(const RunRequest& request, const SimBehaviour& behaviour, std::uint64_t seed, SimOutput output) {
  Random random(seed);
  RunPlan plan;
  const model::NodeStartup& startup = request.node.startup;
  plan.provision_ms = to_ms(random.uniform(startup.provision_min_s, startup.provision_max_s));
  if (behaviour.fail_start) {
    plan.fail_start = true;
    plan.outcome = {std::nullopt, false, "START_FAILED", "container failed to start"};
    return plan;
  }
  std::int64_t natural_ms =
      to_ms(behaviour.duration_s.value_or(default_duration_s(request, random)) * behaviour.slow_factor);
  End end = run_end(request, behaviour, natural_ms);
  auto failure = sim_failure(behaviour.failure, request.node);
  if (failure && end.how == Ending::exited) end.at_ms = failure_end_ms(failure->effect, natural_ms);
  plan.run_ms = end.at_ms;
  plan.outcome = outcome_for(end, behaviour.exit_code);
  if (failure && end.how == Ending::exited) plan.outcome = failure_outcome(*failure);
  add_output(plan, request, behaviour, natural_ms, output);
  if (failure && end.how == Ending::exited) add_failure_lines(plan, *failure);
  add_artifacts(plan, request, behaviour);
  return plan;
}

}  // namespace jgrid::exec
