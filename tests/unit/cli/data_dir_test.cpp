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

TEST_CASE("cli::DataDir creates a new data dir owner-only whatever the umask", "[cli]") {
  auto parent = DataDir::prepare("", true);
  REQUIRE(parent.ok());
  auto path = parent->path() / "new" / "data";
  mode_t old = ::umask(022);
  auto dir = DataDir::prepare(path.string(), false);
  ::umask(old);
  REQUIRE(dir.ok());
  CHECK(mode_of(path) == 0700);
}

TEST_CASE("cli::make_private tightens folders to 0700 and files to 0600 and says what it changed", "[cli]") {
  auto dir = DataDir::prepare("", true);
  REQUIRE(dir.ok());
  auto data = dir->path() / "data";
  fs::create_directories(data);
  fs::permissions(data, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                            fs::perms::others_read | fs::perms::others_exec);
  { std::ofstream(data / "jgrid.db") << "x"; }
  fs::permissions(data / "jgrid.db", fs::perms::owner_read | fs::perms::owner_write | fs::perms::others_read);
  auto changed = jgrid::cli::make_private({data, data / "jgrid.db", data / "jgrid.db-wal"});
  REQUIRE(changed.ok());
  REQUIRE(changed->size() == 2);
  CHECK((*changed)[0] == data.string() + " (was 0755)");
  CHECK((*changed)[1] == (data / "jgrid.db").string() + " (was 0604)");
  CHECK(mode_of(data) == 0700);
  CHECK(mode_of(data / "jgrid.db") == 0600);
  auto again = jgrid::cli::make_private({data, data / "jgrid.db"});
  REQUIRE(again.ok());
  CHECK(again->empty());
}
