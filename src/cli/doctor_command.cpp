// `jgrid-local doctor`: one line per check of the local ROCm node (engine,
// /dev/kfd, topology, render nodes, groups, ROCm tools) with its fix; exit 1
// when a check failed.
#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "doctor_checks.hpp"

namespace jgrid::cli {
namespace {

struct DoctorOptions {
  ServeOptions serve;
  std::string image;
  bool json = false;
};

void print_text(const std::vector<DoctorCheck>& checks) {
  for (const auto& check : checks) {
    std::string mark = check.status == "pass" ? "ok  " : check.status == "warn" ? "warn" : "FAIL";
    std::cout << mark << "  " << check.name << ": " << check.detail << (check.fix.empty() ? "" : " -> fix: " + check.fix)
              << "\n";
  }
}

void print_checks_json(const std::vector<DoctorCheck>& checks, bool ok) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& check : checks)
    out.push_back({{"check", check.name}, {"status", check.status}, {"detail", check.detail}, {"fix", check.fix}});
  std::cout << nlohmann::json{{"ok", ok}, {"checks", out}}.dump(2) << "\n";
}

int doctor(const DoctorOptions& o) {
  if (auto valid = validate(o.serve); !valid) {
    std::cerr << "jgrid-local doctor: " << valid.error().message << "\n";
    return 2;
  }
  auto checks = run_doctor_checks(o.serve, o.image);
  bool ok = std::none_of(checks.begin(), checks.end(), [](const DoctorCheck& c) { return c.status == "fail"; });
  if (o.json)
    print_checks_json(checks, ok);
  else
    print_text(checks);
  return ok ? 0 : 1;
}

}  // namespace

Runner add_doctor_command(CLI::App& app) {
  auto* command = app.add_subcommand("doctor", "Check whether this machine can run the local ROCm node");
  auto options = std::make_shared<DoctorOptions>();
  register_local_options(*command, options->serve);
  command->add_option("--image", options->image, "Image to try a container with (default: a local one)");
  command->add_flag("--json", options->json, "Print {ok, checks: [{check, status, detail, fix}]}");
  return [options] { return doctor(*options); };
}

}  // namespace jgrid::cli
