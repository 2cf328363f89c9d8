// `nodes`: GET /v1/nodes as a table.
#include <cstdio>

#include "commands.hpp"
#include "remote.hpp"
#include "term.hpp"

namespace jgrid::cli {
namespace {

std::string price(const Json& node) {
  if (!node.contains("price_per_gpu_hour") || !node["price_per_gpu_hour"].is_number()) return "-";
  char text[32];
  std::snprintf(text, sizeof(text), "$%.2f", node["price_per_gpu_hour"].get<double>());
  return text;
}

std::vector<std::string> node_row(const Json& node) {
  return {text_of(node, "node_id"),
          text_of(node, "status"),
          text_of(node, "gpu_vendor"),
          text_of(node, "gpu_model"),
          text_of(node, "gpus_free") + "/" + text_of(node, "gpu_count"),
          text_of(node, "runtime") + " " + text_of(node, "runtime_version"),
          text_of(node, "region"),
          price(node),
          text_of(node, "running_jobs")};
}

int run(const RemoteFlags& f) {
  auto client = connect(f);
  if (!client) return report(client.error(), f.json);
  auto reply = client->get("/v1/nodes");
  if (!reply) return report(reply.error(), f.json);
  if (f.json) return print_json(*reply);
  std::vector<std::vector<std::string>> rows;
  for (const auto& node : (*reply)["nodes"]) rows.push_back(node_row(node));
  print_table({"NODE", "STATUS", "VENDOR", "GPU", "FREE", "RUNTIME", "REGION", "$/GPU-H", "JOBS"}, rows);
  return 0;
}

}  // namespace

Runner add_nodes_command(CLI::App& app) {
  auto* command = app.add_subcommand("nodes", "List the fleet's nodes with their free GPUs");
  auto flags = std::make_shared<RemoteFlags>();
  add_remote_flags(command, *flags);
  return [flags] { return run(*flags); };
}

}  // namespace jgrid::cli
