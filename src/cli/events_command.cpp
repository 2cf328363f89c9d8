// `events ID [-f]`: a job's lifecycle events, oldest first; -f polls with the
// cursor until the job has ended.
#include <chrono>
#include <iostream>
#include <thread>

#include "commands.hpp"
#include "remote.hpp"
#include "term.hpp"

namespace jgrid::cli {
namespace {

struct EventsFlags {
  RemoteFlags remote;
  std::string id;
  bool follow = false;
};

bool is_terminal(const std::string& status) {
  return status == "completed" || status == "failed" || status == "rejected" || status == "cancelled";
}

void print_event(const Json& event, bool json) {
  if (json) {
    print_json(event);
    return;
  }
  std::cout << text_of(event, "created_at") << "  " << text_of(event, "type") << "  " << text_of(event, "message")
            << std::endl;
}

int run(const EventsFlags& f) {
  auto client = connect(f.remote);
  if (!client) return report(client.error(), f.remote.json);
  std::map<std::string, std::string> query{{"limit", "100"}};
  while (true) {
    auto page = client->get("/v1/jobs/" + path_segment(f.id) + "/events", query);
    if (!page) return report(page.error(), f.remote.json);
    for (const auto& event : (*page)["items"]) print_event(event, f.remote.json);
    if ((*page)["next_cursor"].is_string()) query["cursor"] = (*page)["next_cursor"].get<std::string>();
    if (page->value("has_more", false)) continue;
    if (!f.follow || is_terminal(text_of(*page, "status"))) return 0;
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
}

}  // namespace

Runner add_events_command(CLI::App& app) {
  auto* command = app.add_subcommand("events", "Print a job's lifecycle events");
  auto flags = std::make_shared<EventsFlags>();
  command->add_option("id", flags->id, "Job id")->required();
  command->add_flag("-f,--follow", flags->follow, "Keep printing new events until the job has ended");
  add_remote_flags(command, flags->remote);
  return [flags] { return run(*flags); };
}

}  // namespace jgrid::cli
