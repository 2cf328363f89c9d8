#pragma once
// Fleet and clock set-up shared by `serve` and `simulate`.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "jgrid/exec/fleet.hpp"
#include "jgrid/util/clock.hpp"
#include "jgrid/util/result.hpp"

namespace jgrid::cli {

// No files: the built-in fleet; {"none"}: no nodes; else the files merged.
// `seed` replaces the fleet's. Errors INVALID_FLEET naming file and path.
Result<exec::Fleet> load_fleet(const std::vector<std::string>& files, std::optional<std::uint64_t> seed);

// `mode` ("" = the fleet's clock.mode) picks a real clock at `scale` (the
// fleet's clock.scale when scale is 1) or a virtual clock.
std::shared_ptr<util::Clock> make_clock(const exec::Fleet& fleet, const std::string& mode, double scale);

// The banner's clock line: "virtual, seed 42" or "real ×60, seed 42".
std::string clock_text(const util::Clock& clock, std::uint64_t seed);

}  // namespace jgrid::cli
