#include "jgrid/cli/app.hpp"

#include <iostream>
#include <map>

#include "commands.hpp"

namespace jgrid::cli {
namespace {

using CommandFactory = Runner (*)(CLI::App&);

// The command table: adding a command is one line here.
const std::pair<const char*, CommandFactory> k_commands[] = {
    {"serve", add_serve_command},
    {"screen", add_screen_command},
    {"simulate", add_simulate_command},
    {"version", add_version_command},
    {"doctor", add_doctor_command},
    {"submit", add_submit_command},
    {"jobs", add_jobs_command},
    {"status", add_status_command},
    {"logs", add_logs_command},
    {"events", add_events_command},
    {"cancel", add_cancel_command},
    {"artifacts", add_artifacts_command},
    {"download", add_download_command},
    {"estimate", add_estimate_command},
    {"nodes", add_nodes_command},
    {"wait", add_wait_command},
};

// CLI11 prints a usage hint on a second line; users asked for one line.
std::string one_line_failure(const CLI::App* app, const CLI::Error& error) {
  std::string prefix = "jgrid-local";
  if (app && app->get_parent()) prefix += " " + app->get_name();
  return prefix + ": " + error.what() + " (see --help)\n";
}

}  // namespace

int run(int argc, char** argv) {
  CLI::App app{"jgrid-local: the Jungle Grid job API, a job store and a simulated GPU fleet in one binary"};
  app.require_subcommand(1);
  app.failure_message(one_line_failure);
  std::map<CLI::App*, Runner> runners;
  for (auto& [name, factory] : k_commands) {
    Runner runner = factory(app);
    runners[app.get_subcommand(name)] = std::move(runner);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    int code = app.exit(error);
    return code == 0 ? 0 : 2;
  }
  for (auto& [command, runner] : runners)
    if (command->parsed()) return runner();
  return 2;
}

}  // namespace jgrid::cli
