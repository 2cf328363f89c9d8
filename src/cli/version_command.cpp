#include <dlfcn.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"

namespace jgrid::cli {
namespace {

// The malloc this binary runs with (CMake's JGRID_ALLOCATOR): tcmalloc
// exports tc_malloc beside malloc.
const char* allocator_name() { return dlsym(RTLD_DEFAULT, "tc_malloc") ? "tcmalloc" : "glibc"; }

}  // namespace

Runner add_version_command(CLI::App& app) {
  auto* command = app.add_subcommand("version", "Print the version");
  auto json = std::make_shared<bool>(false);
  command->add_flag("--json", *json, "Print {\"version\": …, \"allocator\": …} for scripts");
  return [json] {
    if (*json)
      std::cout << nlohmann::json{{"service", "jgrid-local"}, {"version", JGRID_VERSION}, {"allocator", allocator_name()}}
                       .dump()
                << "\n";
    else
      std::cout << "jgrid-local " << JGRID_VERSION << " (allocator: " << allocator_name() << ")\n";
    return 0;
  };
}

}  // namespace jgrid::cli
