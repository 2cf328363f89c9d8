#include "banner.hpp"

namespace jgrid::cli {

void print_banner(std::ostream& out, const BannerFacts& facts) {
  out << "jgrid-local " << JGRID_VERSION << "\n"
      << "  API         " << facts.url << "/v1\n"
      << "  dashboard   " << facts.url << "/\n"
      << "  persistence " << facts.persistence << "\n"
      << "  data dir    " << facts.data_dir << "\n"
      << "  fleet       " << (facts.fleet && !facts.fleet->nodes.empty() ? exec::fleet_summary(*facts.fleet) : "empty")
      << "\n"
      << "  executors   " << facts.executors << "\n";
  if (!facts.local_node.empty()) out << "  local node  " << facts.local_node << "\n";
  if (!facts.slurm.empty()) out << "  slurm       " << facts.slurm << "\n";
  if (!facts.clock.empty()) out << "  clock       " << facts.clock << "\n";
  if (!facts.screening.empty()) out << "  screening   " << facts.screening << "\n";
}

void print_ready_line(std::ostream& out, const std::string& url) {
  out << "jgrid-local ready url=" << url << "\n" << std::flush;
}

}  // namespace jgrid::cli
