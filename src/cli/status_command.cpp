// `status ID`: GET /v1/jobs/{id} as a short report.
#include <iostream>

#include "commands.hpp"
#include "diagnosis_text.hpp"
#include "remote.hpp"

namespace jgrid::cli {
namespace {

struct StatusFlags {
  RemoteFlags remote;
  std::string id;
};

std::string gpu_text(const Json& job) {
  const Json& gpu = job.value("gpu", Json::object());
  if (gpu.empty()) return "-";
  return text_of(gpu, "vendor") + " " + text_of(gpu, "name") + " x" + text_of(gpu, "count") + " (" +
         text_of(gpu, "runtime_version") + ")";
}

std::string nested(const Json& job, const char* object, const char* field) {
  return job.contains(object) ? text_of(job[object], field) : "-";
}

void print_report(const Json& job) {
  const std::pair<const char*, std::string> lines[] = {
      {"job", text_of(job, "job_id")},
      {"name", text_of(job, "name")},
      {"status", text_of(job, "status") + " (phase " + text_of(job, "phase") + ")"},
      {"reason", text_of(job, "status_reason")},
      {"workload", text_of(job, "workload_type")},
      {"image", text_of(job, "image")},
      {"gpu", gpu_text(job)},
      {"node", text_of(job, "assigned_node_id")},
      {"exit code", text_of(job, "exit_code")},
      {"failure", nested(job, "failure", "code") + " " + nested(job, "failure", "summary")},
      {"delay", nested(job, "delay_reason", "code") + " " + nested(job, "delay_reason", "message")},
      {"created", text_of(job, "created_at")},
      {"started", text_of(job, "started_at")},
      {"completed", text_of(job, "completed_at")},
      {"artifacts", text_of(job, "artifacts_ready")},
  };
  for (const auto& [label, value] : lines)
    if (value != "-" && value != "- -") std::cout << label << std::string(11 - std::string(label).size(), ' ') << value << "\n";
  print_diagnosis(job, std::cout);
}

int run(const StatusFlags& f) {
  auto client = connect(f.remote);
  if (!client) return report(client.error(), f.remote.json);
  auto job = client->get("/v1/jobs/" + path_segment(f.id));
  if (!job) return report(job.error(), f.remote.json);
  if (f.remote.json) return print_json(*job);
  print_report(*job);
  return 0;
}

}  // namespace

Runner add_status_command(CLI::App& app) {
  auto* command = app.add_subcommand("status", "Show one job");
  auto flags = std::make_shared<StatusFlags>();
  command->add_option("id", flags->id, "Job id")->required();
  add_remote_flags(command, flags->remote);
  return [flags] { return run(*flags); };
}

}  // namespace jgrid::cli
