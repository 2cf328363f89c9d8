#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"

namespace jgrid::cli {

Runner add_version_command(CLI::App& app) {
  auto* command = app.add_subcommand("version", "Print the version");
  auto json = std::make_shared<bool>(false);
  command->add_flag("--json", *json, "Print {\"version\": …} for scripts");
  return [json] {
    if (*json)
      std::cout << nlohmann::json{{"service", "jgrid-local"}, {"version", JGRID_VERSION}}.dump() << "\n";
    else
      std::cout << "jgrid-local " << JGRID_VERSION << "\n";
    return 0;
  };
}

}  // namespace jgrid::cli
