#include "workspace.hpp"

#include <algorithm>
#include <fstream>
#include <optional>

#include "jgrid/model/layout.hpp"
#include "jgrid/util/crypto.hpp"
#include "jgrid/util/ids.hpp"

namespace jgrid::engine {
namespace {

namespace fs = std::filesystem;

// What a job's container mounts is readable by any user inside it (images
// often run as a non-root user): the data dir above it stays 0700, so other
// users of the host still cannot reach these.
constexpr fs::perms k_mounted_dir = fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                    fs::perms::others_read | fs::perms::others_exec;
constexpr fs::perms k_mounted_file = fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                                     fs::perms::others_read;

Error io_error(const std::string& job_id, const std::string& what, const std::error_code& error) {
  return make_error("IO_ERROR", "preparing the workspace of " + job_id + ": " + what + ": " + error.message());
}

std::optional<std::string> sha256_of(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return std::nullopt;
  util::Sha256 hash;
  std::string buffer(64 * 1024, '\0');
  while (file.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || file.gcount() > 0)
    hash.update(std::string_view(buffer.data(), static_cast<std::size_t>(file.gcount())));
  if (file.bad()) return std::nullopt;
  return hash.hex_digest();
}

std::optional<model::Artifact> artifact_of(const fs::directory_entry& entry, const fs::path& root,
                                           const std::string& job_id, std::int64_t now_ms) {
  std::error_code error;
  if (!entry.is_regular_file(error) || entry.is_symlink(error)) return std::nullopt;
  auto size = entry.file_size(error);
  auto digest = error ? std::nullopt : sha256_of(entry.path());
  if (!digest) return std::nullopt;
  model::Artifact artifact;
  artifact.id = util::new_id("art", now_ms);
  artifact.job_id = job_id;
  artifact.filename = entry.path().lexically_relative(root).generic_string();
  artifact.content_type = model::content_type_for(artifact.filename);
  artifact.size_bytes = static_cast<std::int64_t>(size);
  artifact.sha256 = *digest;
  artifact.created_ms = now_ms;
  return artifact;
}

}  // namespace

Status clear_workspace(const fs::path& data_dir, const std::string& job_id) {
  std::error_code error;
  fs::remove_all(model::job_dir(data_dir, job_id), error);
  if (error) return io_error(job_id, "clearing " + model::job_dir(data_dir, job_id).string(), error);
  return Ok{};
}

Status prepare_workspace(const fs::path& data_dir, const std::string& job_id, const std::vector<StagedInput>& inputs) {
  if (Status cleared = clear_workspace(data_dir, job_id); !cleared) return cleared;
  std::error_code error;
  for (const auto& dir : {model::job_inputs_dir(data_dir, job_id), model::job_scripts_dir(data_dir, job_id),
                          model::job_artifacts_dir(data_dir, job_id)}) {
    if (fs::create_directories(dir, error); error) return io_error(job_id, "creating " + dir.string(), error);
    fs::permissions(dir, k_mounted_dir, error);
  }
  for (const auto& staged : inputs) {
    fs::path dir = staged.script ? model::job_scripts_dir(data_dir, job_id) : model::job_inputs_dir(data_dir, job_id);
    fs::copy_file(model::input_blob_path(data_dir, staged.input.id), dir / staged.input.filename,
                  fs::copy_options::overwrite_existing, error);
    if (error) return io_error(job_id, "copying " + staged.input.id + " to " + staged.input.filename, error);
    fs::permissions(dir / staged.input.filename, k_mounted_file, error);
  }
  return Ok{};
}

Status remove_job_files(const fs::path& data_dir) {
  if (data_dir.empty()) return Ok{};
  std::error_code error;
  for (const auto& dir : {model::jobs_dir(data_dir), model::uploads_dir(data_dir)}) {
    fs::directory_iterator it(dir, error);
    if (error == std::errc::no_such_file_or_directory) continue;
    for (; !error && it != fs::directory_iterator(); it.increment(error))
      if (fs::remove_all(it->path(), error); error)
        return make_error("IO_ERROR", "removing " + it->path().string() + ": " + error.message());
    if (error) return make_error("IO_ERROR", "listing " + dir.string() + ": " + error.message());
  }
  return Ok{};
}

std::vector<model::Artifact> collect_artifacts(const fs::path& data_dir, const std::string& job_id,
                                               std::int64_t now_ms) {
  std::vector<model::Artifact> artifacts;
  fs::path root = model::job_artifacts_dir(data_dir, job_id);
  std::error_code error;
  if (!fs::is_directory(root, error)) return artifacts;  // a simulated job without artifacts has no such dir
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, error);
  for (; !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (auto artifact = artifact_of(*it, root, job_id, now_ms)) artifacts.push_back(std::move(*artifact));
  }
  std::sort(artifacts.begin(), artifacts.end(),
            [](const model::Artifact& a, const model::Artifact& b) { return a.filename < b.filename; });
  return artifacts;
}

}  // namespace jgrid::engine
