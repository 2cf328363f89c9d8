#pragma once
// The start banner of `serve`: what runs where, for humans; then exactly one
// machine-readable line "jgrid-local ready url=<url>".
#include <ostream>
#include <string>

#include "jgrid/exec/fleet.hpp"

namespace jgrid::cli {

struct BannerFacts {
  std::string url;
  std::string persistence;  // "sqlite /path/jgrid.db (WAL, synchronous=FULL)"
  std::string data_dir;
  const exec::Fleet* fleet = nullptr;
  std::string executors;
  std::string local_node;  // what the local node is, or why there is none
  std::string clock;        // "virtual, seed 42" or "real ×60, seed 42"; "" prints no line
  std::string slurm;        // the Slurm nodes; "" prints no line
  std::string screening;    // what screening reads about images and where unknown stacks go
};

void print_banner(std::ostream& out, const BannerFacts& facts);
void print_ready_line(std::ostream& out, const std::string& url);

}  // namespace jgrid::cli
