// Fleet files (docs/simulation.md §1), as `serve --fleet` and `simulate` read them: the
// input is written to a file and loaded through load_fleet_file, once as
// YAML and once as JSON. Any input must load or give INVALID_FLEET.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#include "jgrid/exec/fleet.hpp"

namespace {

std::string scratch_dir() {
  static const std::string dir = [] {
    std::string pattern = "/tmp/jgrid-fuzz-fleet-XXXXXX";
    if (!mkdtemp(pattern.data())) std::abort();
    return pattern;
  }();
  return dir;
}

void load_as(const std::string& name, const std::uint8_t* data, std::size_t size) {
  std::string path = scratch_dir() + "/" + name;
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  auto fleet = jgrid::exec::load_fleet_file(path);
  if (!fleet) {
    if (fleet.error().code != "INVALID_FLEET") std::abort();
    return;
  }
  (void)jgrid::exec::fleet_summary(*fleet);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  load_as("fleet.yaml", data, size);
  load_as("fleet.json", data, size);
  return 0;
}
