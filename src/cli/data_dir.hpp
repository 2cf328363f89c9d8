#pragma once
// The data dir of a serve run: created (or made temporary for --ephemeral),
// holding the signing secret, and removed at exit when ephemeral.
#include <filesystem>
#include <string>

#include "jgrid/util/result.hpp"

namespace jgrid::cli {

class DataDir {
 public:
  // Creates `path` (and parents), or a fresh /tmp/jgrid-XXXXXX when
  // `ephemeral`. Error DATA_DIR_FAILED naming the path and the OS reason.
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
  // (api.md §5), in <data-dir>/callback.key: read, or created once with mode
  // 0600. Separate from the URL secret, so a receiver that is given it
  // cannot sign download URLs. Error IO_ERROR.
  Result<std::string> callback_secret() const;

 private:
  DataDir(std::filesystem::path path, bool ephemeral) : m_path(std::move(path)), m_ephemeral(ephemeral) {}
  std::filesystem::path m_path;
  bool m_ephemeral = false;
};

}  // namespace jgrid::cli
