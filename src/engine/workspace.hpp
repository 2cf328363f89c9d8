#pragma once
// A job's files on disk: the workspace made before a run and the artifacts
// collected after it (model/layout.hpp names the paths).
#include <cstdint>
#include <filesystem>
#include <vector>

#include "jgrid/model/artifact.hpp"
#include "jgrid/model/job.hpp"
#include "jgrid/model/job_input.hpp"
#include "jgrid/util/result.hpp"

namespace jgrid::engine {

// A file to place in the workspace: an uploaded input and its folder.
struct StagedInput {
  model::JobInput input;
  bool script = false;  // scripts/ instead of inputs/
};

// Recreates <data>/jobs/<id>/{inputs,scripts,artifacts} empty (a retry starts
// clean) and copies each uploaded blob in under its filename. Error IO_ERROR
// naming the job and the file.
Status prepare_workspace(const std::filesystem::path& data_dir, const std::string& job_id,
                         const std::vector<StagedInput>& inputs);

// Removes what an earlier attempt left in <data>/jobs/<id> (for executors
// that get no prepared workspace). Error IO_ERROR naming the folder.
Status clear_workspace(const std::filesystem::path& data_dir, const std::string& job_id);

// Every regular file under the job's artifacts dir (symlinks are skipped,
// never followed), sorted by filename, with size and sha256. Missing dir:
// none. Files that vanish or cannot be read while walking are skipped.
std::vector<model::Artifact> collect_artifacts(const std::filesystem::path& data_dir, const std::string& job_id,
                                               std::int64_t now_ms);

// Removes every job's folder and every uploaded input's bytes (the contents
// of <data>/jobs and <data>/uploads; the folders stay). Nothing to do
// without a data dir. Error IO_ERROR naming what could not be removed.
Status remove_job_files(const std::filesystem::path& data_dir);

}  // namespace jgrid::engine
