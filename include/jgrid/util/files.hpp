#pragma once
// File helpers. Expected failures (missing file, permission) are Results.
#include <filesystem>
#include <optional>
#include <string>

#include "jgrid/util/result.hpp"

namespace jgrid::util {

Result<std::string> read_file(const std::filesystem::path& path);
// Writes to a temporary sibling, fsyncs, renames, then fsyncs the directory:
// readers see the old or the new content, never a half-written file, and
// the new content survives a power cut once this returns. `mode` applies to
// the new file as given; without it the file gets 0666 less the process
// umask, as open() gives (serve runs with umask 077: owner-only).
Status write_file_atomic(const std::filesystem::path& path, std::string_view data,
                         std::optional<unsigned> mode = std::nullopt);
// fsyncs the directory `dir`: a rename or a new entry in it is durable after.
Status sync_directory(const std::filesystem::path& dir);
// Renames `from` (a file already synced) to `to`, creating `to`'s directory
// when missing, and syncs that directory. Error IO_ERROR naming both.
Status rename_durably(const std::filesystem::path& from, const std::filesystem::path& to);

}  // namespace jgrid::util
