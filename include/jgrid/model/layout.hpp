#pragma once
// Where things live under the data dir. The one owner of these paths.
#include <filesystem>
#include <string>

namespace jgrid::model {

namespace fs = std::filesystem;

inline fs::path database_path(const fs::path& data_dir) { return data_dir / "jgrid.db"; }
inline fs::path secret_path(const fs::path& data_dir) { return data_dir / "secret.key"; }
inline fs::path callback_secret_path(const fs::path& data_dir) { return data_dir / "callback.key"; }
// Every job's folder is in here, and every uploaded input's bytes in uploads_dir.
inline fs::path jobs_dir(const fs::path& data_dir) { return data_dir / "jobs"; }
inline fs::path uploads_dir(const fs::path& data_dir) { return data_dir / "uploads"; }
// Built as one text: each `/` of a path splits it into components again, and
// every simulated run asks for its job's folder.
inline fs::path job_dir(const fs::path& data_dir, const std::string& job_id) {
  std::string text = data_dir.native();
  if (!text.empty() && text.back() != '/') text += '/';
  return fs::path(text.append("jobs/").append(job_id));
}
inline fs::path job_artifacts_dir(const fs::path& data_dir, const std::string& job_id) {
  return job_dir(data_dir, job_id) / "artifacts";
}
inline fs::path job_inputs_dir(const fs::path& data_dir, const std::string& job_id) {
  return job_dir(data_dir, job_id) / "inputs";
}
inline fs::path job_scripts_dir(const fs::path& data_dir, const std::string& job_id) {
  return job_dir(data_dir, job_id) / "scripts";
}
// Uploaded bytes of an input, before any job uses it.
inline fs::path input_blob_path(const fs::path& data_dir, const std::string& input_id) {
  return uploads_dir(data_dir) / input_id;
}

}  // namespace jgrid::model
