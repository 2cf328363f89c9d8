#include <fstream>
#include <sstream>

#include "engine_fixture.hpp"
#include "jgrid/model/layout.hpp"

using namespace jgrid;
using jgrid::model::JobStatus;
using jgrid::test::EngineFixture;
using jgrid::test::make_node;
using jgrid::test::make_spec;

namespace {

std::string uploaded(EngineFixture& f, const std::string& filename, const std::string& kind, const std::string& bytes) {
  auto input = f.engine->create_input("local", filename, "", kind);
  REQUIRE(input);
  auto received = f.data_dir / ("received-" + filename);
  std::ofstream(received, std::ios::binary) << bytes;
  REQUIRE(f.engine->record_upload(input->id, received, static_cast<std::int64_t>(bytes.size()), "sha"));
  REQUIRE(f.engine->complete_input({input->id, "local", input->token, std::nullopt}));
  return input->id;
}

std::string read(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("engine launch copies inputs and scripts into the job's workspace", "[engine]") {
  EngineFixture f({make_node("mi300x-1", "amd", 8)});
  model::JobSpec spec = make_spec("amd");
  spec.input_files = {uploaded(f, "data.csv", "input", "a,b\n1,2\n")};
  spec.script_files = {uploaded(f, "run.sh", "script", "echo hi\n")};
  model::Job job = f.submit(spec);
  REQUIRE(f.executor->wait_started(1));
  auto dir = f.executor->request_of(job.id).workspace_dir;
  CHECK(dir == model::job_dir(f.data_dir, job.id));
  CHECK(read(dir / "inputs" / "data.csv") == "a,b\n1,2\n");
  CHECK(read(dir / "scripts" / "run.sh") == "echo hi\n");
  CHECK(std::filesystem::is_directory(dir / "artifacts"));
  // A container's non-root user reads what is mounted, whatever the umask (serve runs with 077).
  namespace fs = std::filesystem;
  for (const char* sub : {"inputs", "scripts", "artifacts"})
    CHECK((fs::status(dir / sub).permissions() & fs::perms::others_exec) != fs::perms::none);
  CHECK((fs::status(dir / "inputs" / "data.csv").permissions() & fs::perms::others_read) != fs::perms::none);
}

TEST_CASE("engine launch fails the job when its workspace cannot be prepared", "[engine]") {
  EngineFixture f({make_node("mi300x-1", "amd", 8)});
  model::JobSpec spec = make_spec("amd");
  std::string id = uploaded(f, "data.csv", "input", "bytes");
  std::filesystem::remove(model::input_blob_path(f.data_dir, id));  // the blob vanished
  spec.input_files = {id};
  model::Job job = f.submit(spec);
  REQUIRE(f.reaches(job.id, JobStatus::failed));
  auto failed = *f.stored(job.id);
  CHECK(failed.failure->code == "START_FAILED");
  CHECK(failed.failure->summary.find(id) != std::string::npos);
  CHECK_FALSE(f.executor->was_started(job.id));
}
