#pragma once
// Optional enrichment of a GPU detection with the names AMD's own tools
// report (`amd-smi`, else `rocm-smi`), when one is on PATH.
#include <map>
#include <string>

#include "jgrid/exec/gpu_detect.hpp"

namespace jgrid::exec {

// Marketing names by GPU index from `amd-smi static --asic --json` (a list of
// {gpu, asic: {market_name}}, bare or under "gpu_data"); empty when not parsable.
std::map<int, std::string> parse_amd_smi_names(const std::string& json_text);

// The same from `rocm-smi --showproductname --json` ({"card0": {"Card Series": …}}).
std::map<int, std::string> parse_rocm_smi_names(const std::string& json_text);

// Replaces the names of report.gpus with those the tools give. Does nothing
// when neither tool is on PATH or its output cannot be read.
void enrich_with_smi(LocalGpuReport& report);

}  // namespace jgrid::exec
