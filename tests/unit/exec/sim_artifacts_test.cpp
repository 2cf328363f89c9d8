#include "exec/sim_artifacts.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "recording_sink.hpp"

using namespace jgrid;
using namespace jgrid::exec;
using jgrid::exec::testing::read_text;

namespace {

}  // namespace

TEST_CASE("sim_artifacts::write_artifacts writes files and creates subdirs", "[exec][sim]") {
  exec::testing::TempWorkspace workspace;
  auto dir = workspace.path() / "artifacts";
  REQUIRE(write_artifacts(dir, {{"result.json", "{}"}, {"plots/deep/a.txt", "A"}}).ok());
  CHECK(read_text(dir / "result.json") == "{}");
  CHECK(read_text(dir / "plots" / "deep" / "a.txt") == "A");
}

TEST_CASE("sim_artifacts::write_artifacts refuses a path that leaves the dir", "[exec][sim]") {
  exec::testing::TempWorkspace workspace;
  auto dir = workspace.path() / "artifacts";
  Status status = write_artifacts(dir, {{"../escaped.txt", "x"}});
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().code == "INVALID_REQUEST");
  CHECK_FALSE(std::filesystem::exists(workspace.path() / "escaped.txt"));
}

TEST_CASE("sim_artifacts::write_artifacts reports a failed write", "[exec][sim]") {
  exec::testing::TempWorkspace workspace;
  auto dir = workspace.path() / "artifacts";
  std::ofstream(dir / "taken") << "a file where a dir should be";
  Status status = write_artifacts(dir, {{"taken/inner.txt", "x"}});
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().code == "IO_ERROR");
}
