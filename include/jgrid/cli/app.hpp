#pragma once
// The command line: `jgrid-local <command> [options]`. Returns the process
// exit code (0 ok, 1 runtime failure, 2 bad usage).
namespace jgrid::cli {

int run(int argc, char** argv);

}  // namespace jgrid::cli
