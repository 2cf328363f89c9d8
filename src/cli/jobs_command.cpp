// `jobs`: GET /v1/jobs as a table, newest first.
#include "commands.hpp"
#include "remote.hpp"
#include "term.hpp"

namespace jgrid::cli {
namespace {

struct JobsFlags {
  RemoteFlags remote;
  std::string status, workload, gpu_vendor;
  int limit = 20;
  bool all = false;
};

std::vector<std::string> job_row(const Json& job) {
  return {text_of(job, "job_id"),     text_of(job, "name"),       text_of(job, "status"),
          text_of(job, "phase"),      text_of(job, "gpu_vendor"), text_of(job, "workload_type"),
          text_of(job, "created_at")};
}

int run(const JobsFlags& f) {
  auto client = connect(f.remote);
  if (!client) return report(client.error(), f.remote.json);
  std::map<std::string, std::string> query{{"limit", std::to_string(f.all ? 100 : f.limit)}};
  if (!f.status.empty()) query["status"] = f.status;
  if (!f.workload.empty()) query["workload_type"] = f.workload;
  if (!f.gpu_vendor.empty()) query["gpu_vendor"] = f.gpu_vendor;
  Json jobs = Json::array();
  while (true) {
    auto page = client->get("/v1/jobs", query);
    if (!page) return report(page.error(), f.remote.json);
    for (auto& job : (*page)["jobs"]) jobs.push_back(std::move(job));
    if (!f.all || !page->value("has_more", false) || !(*page)["next_cursor"].is_string()) break;
    query["cursor"] = (*page)["next_cursor"].get<std::string>();
  }
  if (f.remote.json) return print_json(Json{{"jobs", jobs}});
  std::vector<std::vector<std::string>> rows;
  for (const auto& job : jobs) rows.push_back(job_row(job));
  print_table({"JOB", "NAME", "STATUS", "PHASE", "VENDOR", "WORKLOAD", "CREATED"}, rows);
  return 0;
}

}  // namespace

Runner add_jobs_command(CLI::App& app) {
  auto* command = app.add_subcommand("jobs", "List jobs, newest first");
  auto flags = std::make_shared<JobsFlags>();
  command->add_option("--status", flags->status, "Only these statuses (comma list, e.g. queued,running)");
  command->add_option("--workload", flags->workload, "Only this workload type");
  command->add_option("--gpu-vendor", flags->gpu_vendor, "Only this GPU vendor");
  command->add_option("--limit", flags->limit, "At most this many (1..100, default 20)");
  command->add_flag("--all", flags->all, "Every job (follows the cursor)");
  add_remote_flags(command, flags->remote);
  return [flags] { return run(*flags); };
}

}  // namespace jgrid::cli
