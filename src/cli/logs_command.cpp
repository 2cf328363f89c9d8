// `logs ID [-f] [--stream]`: stored log lines, or the live stream to the end.
#include <iostream>

#include "commands.hpp"
#include "diagnosis_text.hpp"
#include "follow.hpp"
#include "remote.hpp"

namespace jgrid::cli {
namespace {

struct LogsFlags {
  RemoteFlags remote;
  std::string id, stream = "all";
  int tail = 0;
  bool follow = false;
};

void print_entry(const Json& entry, const std::string& stream) {
  std::string category = text_of(entry, "category");
  if (category == "platform" && stream == "all") std::cout << "-- ";
  std::cout << text_of(entry, "message") << "\n";
}

int run_stored(api::Client& client, const LogsFlags& f) {
  std::map<std::string, std::string> query{{"stream", f.stream}, {"limit", "1000"}};
  if (f.tail > 0) query["tail"] = std::to_string(f.tail);
  Json items = Json::array();
  while (true) {
    auto page = client.get("/v1/jobs/" + path_segment(f.id) + "/logs", query);
    if (!page) return report(page.error(), f.remote.json);
    for (auto& entry : (*page)["items"]) {
      if (f.remote.json) items.push_back(entry);
      else print_entry(entry, f.stream);
    }
    if (f.tail > 0 || !page->value("has_more", false) || !(*page)["next_cursor"].is_string()) break;
    query["cursor"] = (*page)["next_cursor"].get<std::string>();
  }
  if (f.remote.json) {
    print_json(Json{{"job_id", f.id}, {"items", items}});
  } else if (auto job = client.get("/v1/jobs/" + path_segment(f.id))) {
    print_diagnosis(*job, std::cerr);  // after the lines, on stderr: `logs ID > file` keeps only the output
  }
  return 0;
}

int run(const LogsFlags& f) {
  auto client = connect(f.remote);
  if (!client) return report(client.error(), f.remote.json);
  if (!f.follow) return run_stored(*client, f);
  return follow_job(*client, f.id, FollowOptions{false, f.remote.json, f.stream, false});
}

}  // namespace

Runner add_logs_command(CLI::App& app) {
  auto* command = app.add_subcommand("logs", "Print a job's log lines");
  auto flags = std::make_shared<LogsFlags>();
  command->add_option("id", flags->id, "Job id")->required();
  command->add_flag("-f,--follow", flags->follow, "Follow live lines until the job ends; exit with its exit code");
  command->add_option("--stream", flags->stream, "stdout, stderr or all (default)")
      ->check(CLI::IsMember({"stdout", "stderr", "all"}));
  command->add_option("--tail", flags->tail, "Only the last N lines");
  add_remote_flags(command, flags->remote);
  return [flags] { return run(*flags); };
}

}  // namespace jgrid::cli
