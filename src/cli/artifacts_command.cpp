// `artifacts ID`: the job's artifacts and which expected ones are present.
#include <iostream>

#include "commands.hpp"
#include "remote.hpp"
#include "term.hpp"

namespace jgrid::cli {
namespace {

struct ArtifactsFlags {
  RemoteFlags remote;
  std::string id;
};

std::string size_of(const Json& artifact) {
  auto size = artifact.value("size_bytes", Json());
  return size.is_number_unsigned() || size.is_number_integer() ? format_bytes(size.get<std::uint64_t>()) : "-";
}

int run(const ArtifactsFlags& f) {
  auto client = connect(f.remote);
  if (!client) return report(client.error(), f.remote.json);
  auto reply = client->get("/v1/jobs/" + path_segment(f.id) + "/artifacts");
  if (!reply) return report(reply.error(), f.remote.json);
  if (f.remote.json) return print_json(*reply);
  std::vector<std::vector<std::string>> rows;
  for (const auto& artifact : (*reply)["artifacts"])
    rows.push_back({text_of(artifact, "filename"), size_of(artifact), text_of(artifact, "content_type"),
                    text_of(artifact, "sha256").substr(0, 12), text_of(artifact, "artifact_id")});
  print_table({"NAME", "SIZE", "TYPE", "SHA256", "ID"}, rows);
  for (const auto& expected : reply->value("expected", Json::array()))
    if (!expected.value("present", true)) std::cout << "missing: " << text_of(expected, "path") << "\n";
  return 0;
}

}  // namespace

Runner add_artifacts_command(CLI::App& app) {
  auto* command = app.add_subcommand("artifacts", "List a job's artifacts");
  auto flags = std::make_shared<ArtifactsFlags>();
  command->add_option("id", flags->id, "Job id")->required();
  add_remote_flags(command, flags->remote);
  return [flags] { return run(*flags); };
}

}  // namespace jgrid::cli
