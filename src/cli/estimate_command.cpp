// `estimate FILE|-`: POST /v1/jobs/estimate shown as a screening table,
// the routing candidates and the cost. Exit 0 when the job could be
// submitted, 1 when screening or capacity would refuse it.
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "plan.hpp"
#include "term.hpp"

namespace jgrid::cli {
namespace {

struct EstimateFlags {
  RemoteFlags remote;
  std::string file;
};

std::string money(const Json& value) {
  if (!value.is_number()) return "-";
  char text[32];
  std::snprintf(text, sizeof(text), "$%.2f", value.get<double>());
  return text;
}

std::string joined(const Json& list) {
  std::string out;
  for (const auto& item : list) out += (out.empty() ? "" : "; ") + (item.is_string() ? item.get<std::string>() : item.dump());
  return out.empty() ? "-" : out;
}

void print_screening(const Json& screening) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& check : screening.value("checks", Json::array()))
    rows.push_back({text_of(check, "rule"), text_of(check, "status"), text_of(check, "field"), text_of(check, "message")});
  std::cout << "screening\n";
  print_table({"RULE", "STATUS", "FIELD", "MESSAGE"}, rows);
  for (const auto& fix : screening.value("fixes", Json::array()))
    std::cout << "fix: " << (fix.is_string() ? fix.get<std::string>() : fix.dump()) << "\n";
}

void print_routing(const Json& routing) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& c : routing.value("candidates", Json::array()))
    rows.push_back({text_of(c, "node_id"), text_of(c, "gpu_model"), text_of(c, "score"),
                    c.value("feasible", false) ? "yes" : "no", joined(c.value("reasons", Json::array()))});
  std::cout << "\nrouting: " << text_of(routing, "route_status") << ", selected " << text_of(routing, "selected_node_id")
            << " (" << text_of(routing, "selected_accelerator") << ")\n";
  print_table({"NODE", "GPU", "SCORE", "FEASIBLE", "REASONS"}, rows);
}

void print_cost(const Json& e) {
  std::cout << "\ncost: " << money(e.value("estimated_cost_usd", Json())) << " (" << money(e.value("estimated_cost_min_usd", Json()))
            << " to " << money(e.value("estimated_cost_max_usd", Json())) << "), "
            << money(e.value("estimated_hourly_rate_usd", Json())) << "/h, runtime "
            << text_of(e, "estimated_runtime_min_minutes") << "-" << text_of(e, "estimated_runtime_max_minutes")
            << " min, queue wait " << text_of(e, "estimated_queue_wait_seconds") << " s\n";
  std::cout << "can submit: " << (e.value("can_submit", false) ? "yes" : "no");
  if (e.contains("unavailable_code") && e["unavailable_code"].is_string())
    std::cout << " (" << text_of(e, "unavailable_code") << ": " << text_of(e, "unavailable_reason") << ")";
  std::cout << "\n";
}

int run(const EstimateFlags& f) {
  auto request = read_request(f.file);
  if (!request) return report(request.error(), f.remote.json);
  auto client = connect(f.remote);
  if (!client) return report(client.error(), f.remote.json);
  auto estimate = client->post("/v1/jobs/estimate", *request);
  if (!estimate) return report(estimate.error(), f.remote.json);
  return show_plan(*estimate, f.remote.json);
}

}  // namespace

int show_plan(const Json& plan, bool json) {
  int code = plan.value("can_submit", false) ? 0 : 1;
  if (json) return print_json(plan), code;
  print_screening(plan.value("screening", Json::object()));
  print_routing(plan.value("routing", Json::object()));
  print_cost(plan);
  return code;
}

Runner add_estimate_command(CLI::App& app) {
  auto* command = app.add_subcommand("estimate", "Screen, route and price a job without submitting it");
  auto flags = std::make_shared<EstimateFlags>();
  command->add_option("file", flags->file, "Job request (JSON); '-' reads stdin")->required();
  add_remote_flags(command, flags->remote);
  return [flags] { return run(*flags); };
}

}  // namespace jgrid::cli
