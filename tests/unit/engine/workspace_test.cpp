#include "engine/workspace.hpp"

#include <fstream>

#include "engine_fixture.hpp"
#include "jgrid/model/layout.hpp"
#include "jgrid/util/crypto.hpp"

using namespace jgrid;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path = fs::temp_directory_path() / util::new_id("jgrid-ws-test", util::wall_now_ms());
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

void write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace

TEST_CASE("engine::prepare_workspace starts each attempt from a clean workspace", "[engine]") {
  TempDir dir;
  write_file(model::job_artifacts_dir(dir.path, "job_1") / "old.txt", "from the last attempt");
  model::JobInput input;
  input.id = "inp_1";
  input.filename = "data.csv";
  write_file(model::input_blob_path(dir.path, "inp_1"), "x,y");
  REQUIRE(engine::prepare_workspace(dir.path, "job_1", {{input, false}}));
  CHECK_FALSE(fs::exists(model::job_artifacts_dir(dir.path, "job_1") / "old.txt"));
  CHECK(fs::is_directory(model::job_scripts_dir(dir.path, "job_1")));
  CHECK(fs::file_size(model::job_inputs_dir(dir.path, "job_1") / "data.csv") == 3);

  input.id = "inp_missing";
  auto missing = engine::prepare_workspace(dir.path, "job_1", {{input, true}});
  REQUIRE_FALSE(missing);
  CHECK(missing.error().code == "IO_ERROR");
}

TEST_CASE("engine::collect_artifacts lists regular files, never symlinks", "[engine]") {
  TempDir dir;
  auto root = model::job_artifacts_dir(dir.path, "job_1");
  write_file(root / "b.txt", "bb");
  write_file(root / "sub" / "a.json", "{}");
  fs::create_symlink(root / "b.txt", root / "link.txt");
  fs::create_directory_symlink("/etc", root / "etc");
  auto artifacts = engine::collect_artifacts(dir.path, "job_1", 1234);
  REQUIRE(artifacts.size() == 2);
  CHECK(artifacts[0].filename == "b.txt");
  CHECK(artifacts[1].filename == "sub/a.json");
  CHECK(artifacts[0].size_bytes == 2);
  CHECK(artifacts[0].sha256 == util::sha256_hex("bb"));
  CHECK(artifacts[0].job_id == "job_1");
  CHECK(artifacts[0].created_ms == 1234);
  CHECK(engine::collect_artifacts(dir.path, "job_none", 0).empty());
}
