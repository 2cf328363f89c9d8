#pragma once
// The failures a fake node can act out, one per failure diagnosis code
// (docs/simulation.md §4): each prints the error lines a real run prints
// (taken from public issue threads of ROCm, PyTorch, vLLM, llama.cpp and
// ONNX Runtime) on stderr shortly before it exits with the code such a run
// exits with, so a client can test its handling of a broken image offline.
#include <optional>
#include <string>
#include <vector>

#include "jgrid/model/node.hpp"

namespace jgrid::exec {

struct SimFailure {
  std::string effect;              // fault effect / sim.failure value, e.g. "gpu_isa_unsupported"
  int exit_code = 1;
  std::vector<std::string> lines;  // stderr, in order, just before the exit
};

// Every effect name, in table order.
const std::vector<std::string>& sim_failure_effects();

// The failure `effect` on `node` (the arch and VRAM of its GPU appear in the
// lines); nullopt for an unknown effect.
std::optional<SimFailure> sim_failure(const std::string& effect, const model::Node& node);

}  // namespace jgrid::exec
