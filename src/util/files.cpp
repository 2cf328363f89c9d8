#include "jgrid/util/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace jgrid::util {
namespace {

Error io_error(const std::string& what, const std::string& path, int error_number) {
  return make_error("IO_ERROR", what + " " + path + ": " + std::strerror(error_number));
}

// A sibling name no other writer (thread or process) uses at the same time.
std::string temp_sibling(const std::filesystem::path& path) {
  static std::atomic<unsigned long> counter{0};
  return path.string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
}

Status write_all(int fd, std::string_view data, const std::string& temp) {
  std::size_t written = 0;
  while (written < data.size()) {
    auto n = ::write(fd, data.data() + written, data.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return io_error("cannot write", temp, errno);
    written += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) return io_error("cannot sync", temp, errno);
  return Ok{};
}

}  // namespace

Result<std::string> read_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return io_error("cannot read", path.string(), EISDIR);
  std::ifstream in(path, std::ios::binary);
  if (!in) return io_error("cannot read", path.string(), errno);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return io_error("cannot read", path.string(), EIO);
  return buffer.str();
}

Status write_file_atomic(const std::filesystem::path& path, std::string_view data, std::optional<unsigned> mode) {
  auto temp = temp_sibling(path);
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode.value_or(0666));
  if (fd < 0) return io_error("cannot write", temp, errno);
  if (mode) ::fchmod(fd, *mode);  // open() applied the umask; the caller asked for `mode`
  Status written = write_all(fd, data, temp);
  ::close(fd);
  if (written.ok() && ::rename(temp.c_str(), path.c_str()) != 0) written = io_error("cannot rename", temp, errno);
  if (!written.ok()) ::unlink(temp.c_str());
  if (written.ok()) written = sync_directory(path.has_parent_path() ? path.parent_path() : ".");
  return written;
}

Status sync_directory(const std::filesystem::path& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return io_error("cannot open directory", dir.string(), errno);
  int rc = ::fsync(fd);
  int error_number = errno;
  ::close(fd);
  if (rc != 0) return io_error("cannot sync directory", dir.string(), error_number);
  return Ok{};
}

Status rename_durably(const std::filesystem::path& from, const std::filesystem::path& to) {
  std::error_code error;
  std::filesystem::create_directories(to.parent_path(), error);
  if (::rename(from.c_str(), to.c_str()) != 0)
    return io_error("cannot rename " + from.string() + " to", to.string(), errno);
  return sync_directory(to.parent_path());
}

}  // namespace jgrid::util
