#pragma once
// File helpers. Expected failures (missing file, permission) are Results.
#include <filesystem>
#include <string>

#include "jgrid/util/result.hpp"

namespace jgrid::util {

Result<std::string> read_file(const std::filesystem::path& path);
// Writes to a temporary sibling, fsyncs, then renames: readers see the old or
// the new content, never a half-written file. `mode` applies to the new file.
Status write_file_atomic(const std::filesystem::path& path, std::string_view data, unsigned mode = 0644);

}  // namespace jgrid::util
