#include "sim_setup.hpp"

#include <sstream>

namespace jgrid::cli {

Result<exec::Fleet> load_fleet(const std::vector<std::string>& files, std::optional<std::uint64_t> seed) {
  Result<exec::Fleet> fleet = exec::Fleet{};
  if (files.empty()) fleet = exec::default_fleet();
  else if (files.size() != 1 || files[0] != "none") fleet = exec::load_fleet_files(files);
  if (fleet && seed) fleet->seed = *seed;
  return fleet;
}

std::shared_ptr<util::Clock> make_clock(const exec::Fleet& fleet, const std::string& mode, double scale) {
  std::string chosen = mode.empty() ? fleet.clock_mode : mode;
  if (chosen == "virtual") return util::make_virtual_clock();
  return util::make_real_clock(scale != 1.0 ? scale : fleet.clock_scale);
}

std::string clock_text(const util::Clock& clock, std::uint64_t seed) {
  std::ostringstream out;
  out << clock.mode();
  if (!clock.is_virtual() && clock.scale() != 1.0) out << " ×" << clock.scale();
  out << ", seed " << seed;
  return out.str();
}

}  // namespace jgrid::cli
