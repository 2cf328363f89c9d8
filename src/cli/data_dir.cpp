#include "data_dir.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "jgrid/model/layout.hpp"
#include "jgrid/util/files.hpp"
#include "jgrid/util/ids.hpp"

namespace jgrid::cli {

namespace fs = std::filesystem;

namespace {
constexpr std::size_t k_min_secret_chars = 32;
}  // namespace

Result<DataDir> DataDir::prepare(const std::string& path, bool ephemeral) {
  if (ephemeral) {
    std::string pattern = (fs::temp_directory_path() / "jgrid-XXXXXX").string();
    if (!::mkdtemp(pattern.data()))
      return make_error("DATA_DIR_FAILED", "cannot create a temporary data dir: " + std::string(std::strerror(errno)));
    return DataDir(pattern, true);
  }
  std::error_code error;
  bool created = fs::create_directories(path, error);
  if (!error && created) fs::permissions(path, fs::perms::owner_all, error);
  if (error) return make_error("DATA_DIR_FAILED", "cannot create data dir " + path + ": " + error.message());
  return DataDir(fs::absolute(path), false);
}

DataDir::DataDir(DataDir&& other) noexcept : m_path(std::move(other.m_path)), m_ephemeral(other.m_ephemeral) {
  other.m_ephemeral = false;
  other.m_path.clear();
}

DataDir::~DataDir() {
  if (!m_ephemeral || m_path.empty()) return;
  std::error_code ignored;
  fs::remove_all(m_path, ignored);
}

namespace {

// An existing secret is kept (signed URLs and callback signatures stay valid
// across restarts), but it must be long enough, and only its owner may read it.
Result<std::string> read_secret(const fs::path& path) {
  auto secret = util::read_file(path);
  if (!secret) return secret.error();
  if (secret->size() < k_min_secret_chars)
    return make_error("DATA_DIR_FAILED", "secret " + path.string() + " is shorter than " +
                                             std::to_string(k_min_secret_chars) +
                                             " characters: delete it and a new one is made at the next start");
  std::error_code error;
  auto others = fs::perms::group_all | fs::perms::others_all;
  if ((fs::status(path, error).permissions() & others) != fs::perms::none)
    fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write, error);
  if (error) return make_error("DATA_DIR_FAILED", "cannot make " + path.string() + " private: " + error.message());
  return secret;
}

Result<std::string> read_or_create_secret(const fs::path& path) {
  if (fs::exists(path)) return read_secret(path);
  std::string secret = util::random_hex(32);
  auto written = util::write_file_atomic(path, secret, 0600);
  if (!written) return written.error();
  return secret;
}

std::string octal(unsigned mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", mode & 07777);
  return text;
}

// The change made to `path`, "" when none was needed.
Result<std::string> make_one_private(const fs::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0 || info.st_uid != ::geteuid()) return std::string();
  if ((info.st_mode & 077) == 0) return std::string();
  const unsigned mode = S_ISDIR(info.st_mode) ? 0700 : 0600;
  if (::chmod(path.c_str(), mode) != 0)
    return make_error("DATA_DIR_FAILED", "cannot make " + path.string() + " private: " + std::strerror(errno));
  return path.string() + " (was " + octal(info.st_mode) + ")";
}

}  // namespace

Result<std::vector<std::string>> make_private(const std::vector<fs::path>& paths) {
  std::vector<std::string> changed;
  for (const auto& path : paths) {
    auto change = make_one_private(path);
    if (!change) return change.error();
    if (!change->empty()) changed.push_back(std::move(*change));
  }
  return changed;
}

Result<std::string> DataDir::signing_secret() const { return read_or_create_secret(model::secret_path(m_path)); }

Result<std::string> DataDir::callback_secret() const {
  return read_or_create_secret(model::callback_secret_path(m_path));
}

}  // namespace jgrid::cli
