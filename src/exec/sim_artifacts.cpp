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

}  // namespace

Status write_artifacts(const fs::path& artifacts_dir, const std::map<std::string, std::string>& files) {
  for (const auto& [path, content] : files) {
    auto relative = artifact_relative_path(path);
    if (!relative)
      return make_error("INVALID_REQUEST", "artifact path " + path + " leaves the artifacts dir");
    if (Status written = write_one(artifacts_dir / *relative, content); !written.ok()) return written;
  }
  return Ok{};
}

}  // namespace jgrid::exec
