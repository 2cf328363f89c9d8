// `cancel ID [--reason]`: POST /v1/jobs/{id}/cancel.
#include <iostream>

#include "commands.hpp"
#include "remote.hpp"

namespace jgrid::cli {
namespace {

struct CancelFlags {
  RemoteFlags remote;
  std::string id, reason;
};

int run(const CancelFlags& f) {
  auto client = connect(f.remote);
  if (!client) return report(client.error(), f.remote.json);
  Json body = Json::object();
  if (!f.reason.empty()) body["reason"] = f.reason;
  auto reply = client->post("/v1/jobs/" + path_segment(f.id) + "/cancel", body);
  if (!reply) return report(reply.error(), f.remote.json);
  if (f.remote.json) return print_json(*reply);
  std::cout << text_of(*reply, "job_id") << " " << text_of(*reply, "status") << "\n";
  return 0;
}

}  // namespace

Runner add_cancel_command(CLI::App& app) {
  auto* command = app.add_subcommand("cancel", "Cancel a job that has not ended");
  auto flags = std::make_shared<CancelFlags>();
  command->add_option("id", flags->id, "Job id")->required();
  command->add_option("--reason", flags->reason, "Why (recorded on the job)");
  add_remote_flags(command, flags->remote);
  return [flags] { return run(*flags); };
}

}  // namespace jgrid::cli
