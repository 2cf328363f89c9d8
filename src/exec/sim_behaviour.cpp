#include "exec/sim_behaviour.hpp"

#include <algorithm>
#include <filesystem>

#include "exec/sim_failures.hpp"
#include "jgrid/model/job_spec.hpp"

namespace jgrid::exec {
namespace {

constexpr double k_max_duration_s = model::k_max_sim_duration_s;

// sim.failure: one of sim_failure_effects().
void read_failure(JsonChecker& checker, const Json& sim, const std::string& parent, SimBehaviour& out) {
  if (!sim.is_object() || !sim.contains("failure") || sim["failure"].is_null()) return;
  const Json& value = sim["failure"];
  std::string text = value.is_string() ? value.get<std::string>() : "";
  const auto& known = sim_failure_effects();
  if (std::find(known.begin(), known.end(), text) != known.end()) {
    out.failure = text;
    return;
  }
  std::string list;
  for (const auto& name : known) list += (list.empty() ? "" : ", ") + name;
  checker.fail(member_path(parent, "failure"), "one of " + list, &value);
}

bool has(const Json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && !it->is_null();
}

void read_duration(JsonChecker& checker, const Json& sim, const std::string& parent, SimBehaviour& out) {
  if (!has(sim, "duration_s")) return;
  double seconds = checker.number(sim, parent, "duration_s", std::nullopt, 0);
  if (seconds > k_max_duration_s) checker.fail(member_path(parent, "duration_s"), "at most a week of seconds");
  out.duration_s = seconds;
}

void read_flags(JsonChecker& checker, const Json& sim, const std::string& parent, SimBehaviour& out) {
  out.exit_code = static_cast<int>(checker.integer(sim, parent, "exit_code", out.exit_code, 0, 255));
  out.fail_start = checker.boolean(sim, parent, "fail_start", out.fail_start);
  out.timeout = checker.boolean(sim, parent, "timeout", out.timeout);
  out.oom = checker.boolean(sim, parent, "oom", out.oom);
  read_failure(checker, sim, parent, out);
  out.stdout_every_s = checker.number(sim, parent, "stdout_every_s", out.stdout_every_s, 0, true);
  if (out.stdout_every_s > k_max_duration_s) {
    checker.fail(member_path(parent, "stdout_every_s"), "at most a week of seconds");
    out.stdout_every_s = 1.0;
  }
}

void read_output(JsonChecker& checker, const Json& sim, const std::string& parent, SimBehaviour& out) {
  if (auto lines = checker.strings(sim, parent, "stdout")) out.stdout_lines = std::move(lines);
  if (auto lines = checker.strings(sim, parent, "stderr")) out.stderr_lines = std::move(lines);
}

// Contents may be given as JSON values; they are written as their JSON text.
void read_artifacts(JsonChecker& checker, const Json& sim, const std::string& parent, SimBehaviour& out) {
  const Json* files = checker.object(sim, parent, "artifacts");
  if (!files) return;
  std::map<std::string, std::string> artifacts;
  for (const auto& [path, content] : files->items()) {
    if (!artifact_relative_path(path))
      checker.fail(member_path(parent, "artifacts") + "[\"" + path + "\"]",
                   "a file path under " + std::string(model::k_artifacts_root));
    artifacts[path] = content.is_string() ? content.get<std::string>() : content.dump();
  }
  out.artifacts = std::move(artifacts);
}

}  // namespace

void read_sim(JsonChecker& checker, const Json& sim, const std::string& parent, SimBehaviour& out) {
  if (sim.is_null()) return;
  if (!sim.is_object()) return checker.fail(parent, "an object", &sim);
  read_duration(checker, sim, parent, out);
  read_flags(checker, sim, parent, out);
  read_output(checker, sim, parent, out);
  read_artifacts(checker, sim, parent, out);
}

Result<SimBehaviour> resolve_behaviour(const Json& job_sim, const Json& image_sim) {
  SimBehaviour behaviour;
  JsonChecker checker("START_FAILED", "");
  read_sim(checker, image_sim, "image catalog sim", behaviour);
  read_sim(checker, job_sim, "sim", behaviour);
  if (!checker.ok()) return checker.error();
  return behaviour;
}

std::optional<std::string> artifact_relative_path(const std::string& path) {
  std::string_view rest = path;
  if (rest.starts_with(model::k_artifacts_root)) rest.remove_prefix(model::k_artifacts_root.size());
  else if (rest.starts_with("/")) return std::nullopt;
  if (rest.empty() || rest.ends_with("/") || rest.find('\0') != std::string_view::npos) return std::nullopt;
  std::string normal = std::filesystem::path(rest).lexically_normal().generic_string();
  if (normal == "." || normal == ".." || normal.starts_with("../") || normal.starts_with("/")) return std::nullopt;
  return normal;
}

}  // namespace jgrid::exec
