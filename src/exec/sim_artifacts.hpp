#pragma once
// Writes the files a simulated workload leaves in its artifacts dir.
#include <filesystem>
#include <map>
#include <string>

#include "jgrid/util/result.hpp"

namespace jgrid::exec {

// Writes each relative path -> content under `artifacts_dir`, creating
// subdirs. A path that would leave the dir is refused (INVALID_REQUEST) and
// nothing of it is written; a failed write is IO_ERROR. Stops at the first
// problem.
Status write_artifacts(const std::filesystem::path& artifacts_dir, const std::map<std::string, std::string>& files);

}  // namespace jgrid::exec
