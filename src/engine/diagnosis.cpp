// The diagnosis of a failed run (screen::diagnose) with what the node and
// the fleet say about it.
#include <algorithm>
#include <map>
#include <sstream>

#include "impl.hpp"

namespace jgrid::engine {
namespace {

std::string vram_text(double gb) {
  std::ostringstream out;
  out << gb;
  return out.str();
}

// Up to four AMD GPU models of the fleet with more VRAM than `vram_gb`, smallest first.
std::vector<std::string> roomier_gpus(const std::vector<model::Node>& nodes, double vram_gb) {
  std::map<double, std::string> by_vram;
  for (const auto& node : nodes)
    if (node.gpu_vendor == "amd" && node.vram_gb > vram_gb && !by_vram.count(node.vram_gb))
      by_vram[node.vram_gb] = node.gpu_model + " (" + vram_text(node.vram_gb) + " GB)";
  std::vector<std::string> names;
  for (const auto& [vram, name] : by_vram) {
    if (names.size() == 4) break;
    names.push_back(name);
  }
  return names;
}

}  // namespace

std::optional<model::Diagnosis> Engine::Impl::diagnose_locked(const LiveJob& live,
                                                              const exec::RunOutcome& outcome) const {
  const model::Job& job = live.job;
  screen::FailureFacts facts;
  facts.exit_code = outcome.exit_code;
  facts.timed_out = outcome.timed_out;
  facts.timeout_s = job.spec->timeout_seconds.value_or(0);
  facts.oom_killed = outcome.failure_code == "OOM";
  facts.amd_node = reads_for_diagnosis(live);
  if (job.placement) {
    facts.gpu_model = job.placement->gpu_model;
    facts.runtime_version = job.placement->runtime_version;
    if (auto node = m_pool.find(job.placement->node_id)) {
      facts.gpu_arch = node->gpu_arch;
      facts.vram_gb = node->vram_gb;
    }
  }
  auto diagnosis = screen::diagnose(live.output_scan, facts);
  if (diagnosis && diagnosis->code == "HIP_OUT_OF_MEMORY") {  // only then is the fleet worth reading
    facts.roomier_gpus = roomier_gpus(m_pool.snapshot(), facts.vram_gb);
    diagnosis = screen::diagnose(live.output_scan, facts);
  }
  return diagnosis;
}

}  // namespace jgrid::engine
