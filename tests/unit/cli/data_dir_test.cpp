#include "cli/data_dir.hpp"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <fstream>

#include "jgrid/model/layout.hpp"

using jgrid::cli::DataDir;
namespace fs = std::filesystem;

namespace {

unsigned mode_of(const fs::path& path) {
  struct stat info {};
  REQUIRE(::stat(path.c_str(), &info) == 0);
  return info.st_mode & 0777;
}

}  // namespace

TEST_CASE("cli::DataDir creates the signing secret once, mode 0600, and keeps it", "[cli]") {
  auto dir = DataDir::prepare("", true);
  REQUIRE(dir.ok());
  auto secret_file = jgrid::model::secret_path(dir->path());
  CHECK(!fs::exists(secret_file));
  auto first = dir->signing_secret();
  REQUIRE(first.ok());
  CHECK(first->size() >= 32);
  CHECK(mode_of(secret_file) == 0600);
  auto again = dir->signing_secret();
  REQUIRE(again.ok());
  CHECK(*again == *first);
}

TEST_CASE("cli::DataDir makes a readable secret private and refuses a short one", "[cli]") {
  auto dir = DataDir::prepare("", true);
  REQUIRE(dir.ok());
  auto secret_file = jgrid::model::secret_path(dir->path());
  { std::ofstream(secret_file) << std::string(40, 'a'); }
  fs::permissions(secret_file, fs::perms::owner_read | fs::perms::owner_write | fs::perms::others_read);
  REQUIRE(dir->signing_secret().ok());
  CHECK(mode_of(secret_file) == 0600);
  { std::ofstream(secret_file, std::ios::trunc) << "short"; }
  auto short_secret = dir->signing_secret();
  REQUIRE(!short_secret.ok());
  CHECK(short_secret.error().message.find("shorter than 32") != std::string::npos);
}
