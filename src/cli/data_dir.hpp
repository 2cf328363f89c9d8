#pragma once
// The data dir of a serve run: created (or made temporary for --ephemeral),
// holding the signing secret, and removed at exit when ephemeral. It holds
// secrets (env values, callback and upload tokens in the database), so only
// its owner may enter it.
#include <filesystem>
#include <string>
#include <vector>

#include "jgrid/util/result.hpp"

namespace jgrid::cli {

class DataDir {
 public:
  // Creates `path` (and parents) with mode 0700, or a fresh
  // /tmp/jgrid-XXXXXX (0700) when `ephemeral`; an existing `path` is left
  // as it is (see make_private). Error DATA_DIR_FAILED naming the path and
  // the OS reason.
  static Result<DataDir> prepare(const std::string& path, bool ephemeral);
  DataDir(DataDir&& other) noexcept;
  DataDir& operator=(DataDir&&) = delete;
  ~DataDir();  // removes the tree when ephemeral

  const std::filesystem::path& path() const { return m_path; }
  bool ephemeral() const { return m_ephemeral; }

  // The per-data-dir secret for signed URLs: read, or created once with
  // mode 0600 (an existing one readable by others is made 0600). Error
  // IO_ERROR, or DATA_DIR_FAILED when the file holds fewer than 32 characters.
  Result<std::string> signing_secret() const;
  // The key that signs callbacks of jobs without their own auth token
  // (docs/api.md §5), in <data-dir>/callback.key: read, or created once with mode
  // 0600. Separate from the URL secret, so a receiver that is given it
  // cannot sign download URLs. Error IO_ERROR.
  Result<std::string> callback_secret() const;

 private:
  DataDir(std::filesystem::path path, bool ephemeral) : m_path(std::move(path)), m_ephemeral(ephemeral) {}
  std::filesystem::path m_path;
  bool m_ephemeral = false;
};

// Makes each path of `paths` that exists, belongs to this user and lets
// group or others in owner-only: a folder 0700, a file 0600. Returns what it
// changed, each as "<path> (was 0755)", so the caller can say so once.
// Missing paths and paths of other users are left alone. Error
// DATA_DIR_FAILED naming the path and the OS reason.
Result<std::vector<std::string>> make_private(const std::vector<std::filesystem::path>& paths);

}  // namespace jgrid::cli
