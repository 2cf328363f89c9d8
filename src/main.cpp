// jgrid-local: every command lives in the cli module; this file only hands
// over the arguments and turns anything unexpected into one line and exit 1.
#include <exception>
#include <iostream>

#include "jgrid/cli/app.hpp"

int main(int argc, char** argv) {
  try {
    return jgrid::cli::run(argc, argv);
  } catch (const std::exception& error) {
    std::cerr << "jgrid-local: internal error: " << error.what() << "\n";
    return 1;
  }
}
