#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <atomic>
#include <filesystem>
#include <thread>

#include "jgrid/util/files.hpp"
#include "jgrid/util/ids.hpp"

using namespace jgrid::util;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("jgrid-files-test-" + random_hex(8));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

}  // namespace

TEST_CASE("util::write_file_atomic then read_file returns the bytes", "[util]") {
  TempDir dir;
  fs::path file = dir.path / "secret.key";
  std::string data("bin\0ary\n", 8);
  REQUIRE(write_file_atomic(file, data, 0600).ok());
  auto read = read_file(file);
  REQUIRE(read.ok());
  CHECK(read.value() == data);
  struct stat info{};
  REQUIRE(::stat(file.c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0600);
  REQUIRE(write_file_atomic(file, "second").ok());
  CHECK(read_file(file).value() == "second");
  CHECK(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()) == 1);
}

TEST_CASE("util::write_file_atomic without a mode leaves the process umask in force", "[util]") {
  TempDir dir;
  fs::path file = dir.path / "cache.json";
  mode_t old = ::umask(077);
  auto written = write_file_atomic(file, "{}");
  ::umask(old);
  REQUIRE(written.ok());
  struct stat info{};
  REQUIRE(::stat(file.c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0600);
}

TEST_CASE("util::read_file reports a missing file or a directory as IO_ERROR", "[util]") {
  TempDir dir;
  auto missing = read_file(dir.path / "absent");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().code == "IO_ERROR");
  CHECK(missing.error().message.find("absent") != std::string::npos);
  CHECK(read_file(dir.path).error().code == "IO_ERROR");
}

TEST_CASE("util::write_file_atomic reports an unwritable place as IO_ERROR", "[util]") {
  TempDir dir;
  auto status = write_file_atomic(dir.path / "no" / "such" / "dir" / "f", "x");
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().code == "IO_ERROR");
}

TEST_CASE("util::write_file_atomic lets concurrent writers of one path each land whole", "[util]") {
  TempDir dir;
  fs::path file = dir.path / "state.json";
  std::atomic<int> failures{0};
  std::vector<std::thread> writers;
  for (int t = 0; t < 4; ++t)
    writers.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i)
        if (!write_file_atomic(file, std::string(4096, static_cast<char>('a' + t))).ok()) ++failures;
    });
  for (auto& writer : writers) writer.join();
  CHECK(failures == 0);
  std::string content = read_file(file).value();
  REQUIRE(content.size() == 4096);
  CHECK(content.find_first_not_of(content[0]) == std::string::npos);
}
