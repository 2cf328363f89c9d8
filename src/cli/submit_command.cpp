// `submit FILE|-` or flags: POST /v1/jobs, then optionally follow the job.
#include <iostream>

#include "commands.hpp"
#include "follow.hpp"
#include "plan.hpp"
#include "remote.hpp"

namespace jgrid::cli {
namespace {

struct SubmitFlags {
  RemoteFlags remote;
  std::string file;
  std::string image, command, gpu_vendor, runtime, framework, workload, name, gpu_type, priority;
  std::string idempotency_key;
  int gpu_count = 0;
  double timeout_s = 0;
  std::vector<std::string> env, labels, artifacts, sets;
  bool wait = false, follow = false, dry_run = false;
};

void add_flags(CLI::App* command, SubmitFlags& f) {
  command->add_option("file", f.file, "Job request (JSON); '-' reads stdin. Flags below override its fields");
  command->add_option("--image", f.image, "OCI image reference");
  command->add_option("--command", f.command, "Command line (split like shell words, no shell runs)");
  command->add_option("--gpu-vendor", f.gpu_vendor, "amd, nvidia or any");
  command->add_option("--runtime", f.runtime, "rocm, cuda or auto");
  command->add_option("--framework", f.framework, "e.g. pytorch-rocm, vllm-rocm, llama.cpp-rocm, onnx-rocm");
  command->add_option("--workload", f.workload, "Workload type: inference, training, fine-tuning, batch");
  command->add_option("--name", f.name, "Job name");
  command->add_option("--gpu-count", f.gpu_count, "GPUs (default 1)");
  command->add_option("--gpu-type", f.gpu_type, "GPU model hint, e.g. MI300X");
  command->add_option("--priority", f.priority, "low, balanced or high");
  command->add_option("--timeout", f.timeout_s, "Seconds before the job fails with timed_out");
  command->add_option("--env", f.env, "KEY=VALUE environment variable (repeatable)");
  command->add_option("--label", f.labels, "KEY=VALUE job label (repeatable)");
  command->add_option("--artifact", f.artifacts, "Expected artifact under /workspace/artifacts/ (repeatable)");
  command->add_option("--set", f.sets, "FIELD=JSON any request field, e.g. --set 'sim={\"exit_code\":3}' (repeatable)");
  command->add_option("--idempotency-key", f.idempotency_key, "Idempotency-Key header: a retry returns the first job");
  command->add_flag("--wait", f.wait, "Show progress, follow the logs, exit with the job's exit code");
  auto* follow = command->add_flag("--follow", f.follow, "Follow the logs (no progress line), exit with the job's exit code");
  command->add_flag("--dry-run", f.dry_run,
                    "Validate, screen and route as a submit would (?dry_run=1), print the plan, create nothing; "
                    "exit 1 when it would be refused")
      ->excludes(follow)
      ->excludes(command->get_option("--wait"))
      ->excludes(command->get_option("--idempotency-key"));
  add_remote_flags(command, f.remote);
}

Result<Json> key_values(const std::vector<std::string>& pairs, const std::string& flag) {
  Json out = Json::object();
  for (const auto& pair : pairs) {
    auto eq = pair.find('=');
    if (eq == std::string::npos || eq == 0)
      return make_error("INVALID_OPTION", flag + ": expected KEY=VALUE, got '" + pair + "'");
    out[pair.substr(0, eq)] = pair.substr(eq + 1);
  }
  return out;
}

Status apply_sets(Json& request, const std::vector<std::string>& sets) {
  auto pairs = key_values(sets, "--set");
  if (!pairs) return pairs.error();
  for (auto& [key, text] : pairs->items()) {
    auto value = Json::parse(text.get<std::string>(), nullptr, false);
    request[key] = value.is_discarded() ? text : value;  // bare words are strings
  }
  return Ok{};
}

Status apply_map(Json& request, const char* field, const std::vector<std::string>& pairs, const std::string& flag) {
  if (pairs.empty()) return Ok{};
  auto values = key_values(pairs, flag);
  if (!values) return values.error();
  if (!request[field].is_object()) request[field] = Json::object();
  request[field].update(*values);
  return Ok{};
}

void apply_strings(Json& request, const SubmitFlags& f) {
  const std::pair<const char*, const std::string*> fields[] = {
      {"image", &f.image},       {"command", &f.command},     {"gpu_vendor", &f.gpu_vendor},
      {"runtime", &f.runtime},   {"framework", &f.framework}, {"workload_type", &f.workload},
      {"name", &f.name},         {"gpu_type", &f.gpu_type},   {"priority", &f.priority}};
  for (const auto& [field, value] : fields)
    if (!value->empty()) request[field] = *value;
  if (f.gpu_count > 0) request["gpu_count"] = f.gpu_count;
  if (f.timeout_s > 0) request["timeout_seconds"] = f.timeout_s;
  if (!f.artifacts.empty()) request["expected_artifacts"] = f.artifacts;
}

Result<Json> build_request(const SubmitFlags& f) {
  Json request = Json::object();
  if (!f.file.empty()) {
    auto loaded = read_request(f.file);
    if (!loaded) return loaded.error();
    request = std::move(*loaded);
  }
  apply_strings(request, f);
  if (auto s = apply_map(request, "environment", f.env, "--env"); !s) return s.error();
  if (auto s = apply_map(request, "labels", f.labels, "--label"); !s) return s.error();
  if (auto s = apply_sets(request, f.sets); !s) return s.error();
  return request;
}

void print_submitted(const Json& job) {
  std::cout << "submitted " << text_of(job, "job_id") << " (" << text_of(job, "status") << ")" << std::endl;
  const Json& screening = job.value("screening", Json::object());
  for (const auto& warning : screening.value("warnings", Json::array()))
    std::cout << "warning: " << (warning.is_string() ? warning.get<std::string>() : warning.dump()) << std::endl;
}

int run(const SubmitFlags& f) {
  auto request = build_request(f);
  if (!request) return report(request.error(), f.remote.json);
  auto client = connect(f.remote);
  if (!client) return report(client.error(), f.remote.json);
  if (f.dry_run) {
    auto plan = client->post("/v1/jobs?dry_run=1", *request);
    return plan ? show_plan(*plan, f.remote.json) : report(plan.error(), f.remote.json);
  }
  std::map<std::string, std::string> headers;
  if (!f.idempotency_key.empty()) headers["Idempotency-Key"] = f.idempotency_key;
  auto job = client->post("/v1/jobs", *request, headers);
  if (!job) return report(job.error(), f.remote.json);
  if (f.remote.json) print_json(*job);
  else print_submitted(*job);
  if (!f.wait && !f.follow) return 0;
  FollowOptions follow{f.wait, f.remote.json, "all", true};
  return follow_job(*client, text_of(*job, "job_id"), follow);
}

}  // namespace

Runner add_submit_command(CLI::App& app) {
  auto* command = app.add_subcommand("submit", "Submit a job (from a JSON file, stdin or flags)");
  auto flags = std::make_shared<SubmitFlags>();
  add_flags(command, *flags);
  return [flags] { return run(*flags); };
}

}  // namespace jgrid::cli
