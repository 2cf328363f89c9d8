#include "exec/container_engine.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>

#include "jgrid/util/ids.hpp"
#include "podman_ready.hpp"

using namespace jgrid;
using namespace jgrid::exec;
namespace fs = std::filesystem;

namespace {

using jgrid::test::k_local_image;

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("jgrid-cdi-" + util::random_hex(6));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
  void write(const std::string& name, const std::string& text) const { std::ofstream(path / name) << text; }
};

}  // namespace

TEST_CASE("exec::parse_image_inspect reads podman's image inspect", "[exec][container]") {
  auto image = parse_image_inspect(R"([{"Id": "a20c4f91", "Digest": "sha256:174f2d9b",
      "RepoDigests": ["localhost/x@sha256:174f2d9b"],
      "Config": {"Env": ["ROCM_VERSION=6.2.0", "PATH=/bin", "EMPTY=", "ODD"],
                 "Labels": {"io.junglegrid.runtime": "rocm", "n": 1}}}])",
                                   "localhost/x:latest");
  REQUIRE(image);
  CHECK(image->reference == "localhost/x:latest");
  CHECK(image->id == "a20c4f91");
  CHECK(image->digest == "sha256:174f2d9b");
  CHECK(image->labels == std::map<std::string, std::string>{{"io.junglegrid.runtime", "rocm"}});
  CHECK(image->env ==
        std::map<std::string, std::string>{{"ROCM_VERSION", "6.2.0"}, {"PATH", "/bin"}, {"EMPTY", ""}, {"ODD", ""}});
}

TEST_CASE("exec::parse_image_inspect reads docker's shape and falls back to the id", "[exec][container]") {
  auto docker = parse_image_inspect(R"([{"Id": "sha256:9f3e", "RepoDigests": ["rocm/pytorch@sha256:77aa"],
                                         "Config": {"Env": null, "Labels": null}}])",
                                    "rocm/pytorch:latest");
  REQUIRE(docker);
  CHECK(docker->digest == "sha256:77aa");
  CHECK(docker->labels.empty());
  auto local = parse_image_inspect(R"([{"Id": "9f3e", "RepoDigests": [], "Config": {}}])", "x");
  REQUIRE(local);
  CHECK(local->digest == "sha256:9f3e");
  CHECK_FALSE(parse_image_inspect("[]", "x"));
  CHECK_FALSE(parse_image_inspect("Error: no such image", "x"));
}

TEST_CASE("exec::parse_container_states reads name, state and job id", "[exec][container]") {
  auto containers =
      parse_container_states("jgrid-job_1\trunning\tjob_1\n/jgrid-job_2\texited\tjob_2\nother\trunning\t\n");
  REQUIRE(containers.size() == 2);
  CHECK(containers[0].job_id == "job_1");
  CHECK(containers[0].name == "jgrid-job_1");
  CHECK(containers[0].state == "running");
  CHECK(containers[1].name == "jgrid-job_2");
  CHECK(containers[1].state == "exited");
}

TEST_CASE("exec::engine_failure names the engine, verb, job, exit and stderr line", "[exec][container]") {
  CommandResult result;
  result.exit_code = 125;
  result.err = "Trying to pull...\nError: unknown flag: --bogus\n\n";
  CHECK(engine_failure("/usr/bin/podman", "run", "job_01X", result) ==
        "podman run failed for job_01X: exit 125: Error: unknown flag: --bogus");
  result.err.clear();
  CHECK(engine_failure("docker", "pull", "job_01X", result) == "docker pull failed for job_01X: exit 125");
}

TEST_CASE("exec::amd_cdi_spec_present finds an amd.com/gpu CDI spec", "[exec][container]") {
  TempDir empty, other, amd;
  other.write("nvidia.yaml", "cdiVersion: 0.5.0\nkind: nvidia.com/gpu\n");
  amd.write("amd.json", R"({"cdiVersion": "0.6.0", "kind": "amd.com/gpu", "devices": []})");
  amd.write("amd.txt", "kind: amd.com/gpu");
  CHECK_FALSE(amd_cdi_spec_present({empty.path, other.path, "/nonexistent/cdi"}));
  CHECK(amd_cdi_spec_present({empty.path, amd.path}));
  TempDir txt_only;
  txt_only.write("amd.txt", "kind: amd.com/gpu");
  CHECK_FALSE(amd_cdi_spec_present({txt_only.path}));
}

TEST_CASE("exec::resolve_engine refuses an engine that is not installed", "[exec][container]") {
  auto engine = resolve_engine("no-such-engine-jgrid");
  REQUIRE_FALSE(engine.ok());
  CHECK(engine.error().code == "ENGINE_UNAVAILABLE");
  CHECK(engine.error().message.find("no-such-engine-jgrid: not found on PATH") != std::string::npos);
  CHECK(engine.error().message.find("install podman") != std::string::npos);
}

TEST_CASE("exec::inspect_image returns the local image's labels, env and digest", "[exec][container][podman]") {
  REQUIRE_PODMAN_OR_SKIP();
  auto image = inspect_image("podman", k_local_image);
  REQUIRE(image);
  CHECK(image->labels.at("io.junglegrid.runtime") == "rocm");
  CHECK(image->env.at("ROCM_VERSION") == "6.2.0");
  CHECK(image->digest.rfind("sha256:", 0) == 0);
  CHECK_FALSE(inspect_image("podman", "localhost/jgrid-no-such-image:latest"));
  CHECK(resolve_engine("auto").ok());
  CHECK(resolve_engine("podman").value() == "podman");
}

TEST_CASE("exec::list_job_containers lists containers labelled io.jgrid.job", "[exec][container][podman]") {
  REQUIRE_PODMAN_OR_SKIP();
  std::string job = "job_list" + util::random_hex(4);
  auto made = run_command({"podman", "create", "--runtime", "runc", "--name", "jgrid-" + job, "--label",
                           "io.jgrid.job=" + job, k_local_image, "true"});
  REQUIRE(made.ok());
  REQUIRE(made->exit_code == 0);
  auto containers = list_job_containers("podman");
  (void)run_command({"podman", "rm", "-f", "jgrid-" + job});
  REQUIRE(containers.ok());
  auto it = std::find_if(containers->begin(), containers->end(), [&](const auto& c) { return c.job_id == job; });
  REQUIRE(it != containers->end());
  CHECK(it->name == "jgrid-" + job);
  CHECK(it->state == "created");
}

TEST_CASE("exec::inspect_image ends the engine's options before the image reference", "[exec][container]") {
  // A reference that starts with '-' must reach the engine as an argument, never as one of its options.
  TempDir dir;
  dir.write("engine", "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$(dirname \"$0\")/args\"\nexit 1\n");
  fs::permissions(dir.path / "engine", fs::perms::owner_all);
  CHECK_FALSE(inspect_image((dir.path / "engine").string(), "--help"));
  std::ifstream args(dir.path / "args");
  std::string text((std::istreambuf_iterator<char>(args)), std::istreambuf_iterator<char>());
  CHECK(text == "image\ninspect\n--\n--help\n");
}
