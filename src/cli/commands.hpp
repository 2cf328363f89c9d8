#pragma once
// Subcommands of the binary. Each registers its options on its own CLI11
// subcommand and returns a runner; app.cpp holds the table.
#include <CLI/CLI.hpp>
#include <functional>
#include <memory>

namespace jgrid::cli {

using Runner = std::function<int()>;

// Exit codes of the commands that run in this process (serve, simulate).
inline constexpr int k_exit_runtime = 1;  // could not start or run
inline constexpr int k_exit_usage = 2;    // bad option or input file

// `serve`: the whole grid in this process until SIGINT/SIGTERM.
Runner add_serve_command(CLI::App& app);
// `screen FILE.json`: offline screening of a job request (exit 0/3/2).
Runner add_screen_command(CLI::App& app);
// `doctor`: checks of the local ROCm node, one line each with its fix.
Runner add_doctor_command(CLI::App& app);
// `simulate`: a trace on a simulated fleet and virtual clock, no server.
Runner add_simulate_command(CLI::App& app);
// `version`: prints the version (and --json).
Runner add_version_command(CLI::App& app);

// Client commands (talk to a running server through api::Client only).
Runner add_submit_command(CLI::App& app);
Runner add_jobs_command(CLI::App& app);
Runner add_status_command(CLI::App& app);
Runner add_logs_command(CLI::App& app);
Runner add_events_command(CLI::App& app);
Runner add_cancel_command(CLI::App& app);
Runner add_artifacts_command(CLI::App& app);
Runner add_download_command(CLI::App& app);
Runner add_estimate_command(CLI::App& app);
Runner add_nodes_command(CLI::App& app);
Runner add_wait_command(CLI::App& app);

}  // namespace jgrid::cli
