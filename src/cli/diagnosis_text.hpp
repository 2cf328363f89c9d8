#pragma once
// The two lines `status` and `logs` print for a failed job the grid could
// explain (the job object's `diagnosis`):
//   why   the GPU ran out of memory (MI300X (gfx942) with 192 GB) [stderr line 41]
//   fix   use a smaller batch …
#include <ostream>

#include <nlohmann/json.hpp>

namespace jgrid::cli {

// Prints nothing when `job` has no diagnosis.
void print_diagnosis(const nlohmann::json& job, std::ostream& out);

}  // namespace jgrid::cli
