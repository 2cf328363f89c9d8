#include "exec/sim_artifacts.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

#include "exec/sim_behaviour.hpp"

namespace jgrid::exec {
namespace {

namespace fs = std::filesystem;

Status write_one(const fs::path& target, const std::string& content) {
  std::error_code error;
  fs::create_directories(target.parent_path(), error);
  if (error) return make_error("IO_ERROR", "cannot create " + target.parent_path().string() + ": " + error.message());
  std::ofstream out(target, std::ios::binary | std::ios::trunc);
  out << content;
  out.close();
  if (!out) return make_error("IO_ERROR", "cannot write " + target.string() + ": " + std::strerror(errno));
  return Ok{};
}

// The artifacts dir as a container's engine would have it (0755, as
// engine/workspace.cpp makes the dirs it mounts): the same whichever node ran the job.
Status make_artifacts_dir(const fs::path& dir) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (!error)
    fs::permissions(dir,
                    fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec | fs::perms::others_read |
                        fs::perms::others_exec,
                    error);
  if (error) return make_error("IO_ERROR", "cannot create " + dir.string() + ": " + error.message());
  return Ok{};
}

}  // namespace

Status write_artifacts(const fs::path& artifacts_dir, const std::map<std::string, std::string>& files) {
  if (files.empty()) return Ok{};
  if (Status made = make_artifacts_dir(artifacts_dir); !made.ok()) return made;
  for (const auto& [path, content] : files) {
    auto relative = artifact_relative_path(path);
    if (!relative)
      return make_error("INVALID_REQUEST", "artifact path " + path + " leaves the artifacts dir");
    if (Status written = write_one(artifacts_dir / *relative, content); !written.ok()) return written;
  }
  return Ok{};
}

}  // namespace jgrid::exec
