#include "jgrid/util/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace jgrid::util {

Result<std::string> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error("IO_ERROR", "cannot read " + path.string() + ": " + std::strerror(errno));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

Status write_file_atomic(const std::filesystem::path& path, std::string_view data, unsigned mode) {
  auto temp = path.string() + ".tmp";
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0) return make_error("IO_ERROR", "cannot write " + temp + ": " + std::strerror(errno));
  std::size_t written = 0;
  while (written < data.size()) {
    auto n = ::write(fd, data.data() + written, data.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      return make_error("IO_ERROR", "cannot write " + temp + ": " + std::strerror(errno));
    }
    written += static_cast<std::size_t>(n);
  }
  ::fchmod(fd, mode);
  ::fsync(fd);
  ::close(fd);
  if (::rename(temp.c_str(), path.c_str()) != 0)
    return make_error("IO_ERROR", "cannot rename " + temp + ": " + std::strerror(errno));
  return Ok{};
}

}  // namespace jgrid::util
