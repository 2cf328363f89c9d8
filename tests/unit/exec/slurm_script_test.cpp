// The batch script is run for real by bash, with a fake container engine
// that records what it was asked (the pattern of a fake compiler): what
// Slurm would run on a compute node, minus Slurm.
#include "exec/slurm_script.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include <unistd.h>

#include "jgrid/util/files.hpp"

using namespace jgrid;
using namespace jgrid::exec;
namespace fs = std::filesystem;

namespace {

struct ScriptBench {
  fs::path dir = fs::temp_directory_path() / ("jgrid-slurm-script-" + std::to_string(::getpid()));
  fs::path workspace = dir / "jobs" / "job_01TEST";
  fs::path engine = dir / "bin" / "podman";
  ScriptBench() {
    fs::remove_all(dir);
    for (const char* sub : {"inputs", "scripts", "artifacts"}) fs::create_directories(workspace / sub);
    fs::create_directories(workspace / "slurm");
    fs::create_directories(engine.parent_path());
    REQUIRE(util::write_file_atomic(engine,
                                    "#!/bin/bash\necho \"$*\" >>\"$FAKE_LOG\"\n"
                                    "case \"$1\" in run) echo cid ;; container) echo sha256:feed ;;"
                                    " wait) echo \"${FAKE_EXIT:-0}\" ;; esac\n",
                                    0755));
  }
  ~ScriptBench() { fs::remove_all(dir); }

  RunRequest request() const {
    RunRequest request;
    request.job.id = "job_01TEST";
    request.job.spec.edit().image = "localhost/jgrid-busybox-rocm:latest";
    request.job.spec.edit().command = {"sh", "-c", "echo 'it''s' \"$HOME\""};
    request.job.spec.edit().environment = {{"MODE", "fast lane"}};
    request.job.spec.edit().timeout_seconds = 90;
    model::Placement placement;
    placement.gpu_count = 2;
    placement.gpu_indices = {0, 1};
    request.job.placement = placement;
    request.node.name = "n1";
    request.node.pool = "gpu";
    request.node.labels["slurm.gres_type"] = "mi300x";
    request.workspace_dir = workspace;
    return request;
  }

  // Runs the script as Slurm would; returns its exit code.
  int run(const SlurmOptions& options, const std::string& env) {
    fs::path script = workspace / "slurm" / "job.sh";
    REQUIRE(util::write_file_atomic(script, batch_script(request(), options), 0700));
    std::string command = "cd " + shell_quote(workspace.string()) + " && FAKE_LOG=" + shell_quote(log().string()) +
                          " " + env + " bash " + shell_quote(script.string()) + " >" +
                          shell_quote((dir / "out").string()) + " 2>&1";
    int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  fs::path log() const { return dir / "engine.log"; }
  std::string read(const fs::path& path) const {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
};

SlurmOptions options_with(const fs::path& engine, bool gpu_optional) {
  SlurmOptions options;
  options.engine = engine.string();
  options.engine_args = {"--runtime", "runc"};
  options.gpu_optional = gpu_optional;
  options.render_node_base = 90000;  // no such device here
  options.stop_grace_seconds = 3;
  return options;
}

}  // namespace

TEST_CASE("exec::slurm_time_limit rounds up to whole minutes", "[exec][slurm]") {
  CHECK(slurm_time_limit(0).empty());
  CHECK(slurm_time_limit(1) == "1");
  CHECK(slurm_time_limit(60) == "1");
  CHECK(slurm_time_limit(61) == "2");
  CHECK(slurm_time_limit(7200) == "120");
}

TEST_CASE("exec::shell_quote survives quotes and spaces", "[exec][slurm]") {
  CHECK(shell_quote("plain") == "'plain'");
  CHECK(shell_quote("it's a $HOME") == "'it'\\''s a $HOME'");
}

TEST_CASE("exec::sbatch_argv asks Slurm for the placement's node, GPUs and time", "[exec][slurm]") {
  ScriptBench bench;
  auto argv = sbatch_argv(bench.request(), "/data/job.sh");
  std::string joined;
  for (const auto& word : argv) joined += word + " ";
  CHECK(joined.rfind("sbatch --parsable --job-name jgrid-job_01TEST --partition gpu --nodelist n1 -N1 -n1 ", 0) == 0);
  CHECK(joined.find("--gres=gpu:mi300x:2 --time 2 --no-requeue --output ") != std::string::npos);
  CHECK(argv.back() == "/data/job.sh");
}

TEST_CASE("exec::batch_script runs the container with Slurm's GPUs, the mounts and the env", "[exec][slurm]") {
  ScriptBench bench;
  CHECK(bench.run(options_with(bench.engine, true), "SLURM_JOB_GPUS=0,1 FAKE_EXIT=3") == 3);
  std::string calls = bench.read(bench.log());
  INFO(calls << bench.read(bench.dir / "out"));
  CHECK(calls.rfind("run --runtime runc -d", 0) == 0);  // no engine call before `run`
  CHECK(calls.find("run --runtime runc -d --name jgrid-job_01TEST") != std::string::npos);
  CHECK(calls.find("--log-driver k8s-file --log-opt path=" + (bench.workspace / "jgrid-job_01TEST.log").string()) !=
        std::string::npos);
  CHECK(calls.find("-v " + (bench.workspace / "artifacts").string() + ":/workspace/artifacts:rw") != std::string::npos);
  CHECK(calls.find("-e MODE=fast lane") != std::string::npos);
  CHECK(calls.find("-e JGRID_SLURM_GPUS=0,1") != std::string::npos);
  CHECK(calls.find("-- localhost/jgrid-busybox-rocm:latest sh -c echo 'it''s' \"$HOME\"") != std::string::npos);
  CHECK(calls.find("wait jgrid-job_01TEST") != std::string::npos);
  CHECK(fs::exists(bench.workspace / "slurm" / "running"));
  for (int i = 0; i < 200 && !fs::exists(bench.workspace / "slurm" / "digest"); ++i)  // written in the background
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(bench.read(bench.workspace / "slurm" / "digest") == "sha256:feed\n");
  CHECK(bench.read(bench.workspace / "slurm" / "exit") == "3\n");
  CHECK(bench.read(bench.dir / "out").find("running without them (gpu_optional)") != std::string::npos);
  char host[256] = {};
  REQUIRE(::gethostname(host, sizeof host - 1) == 0);
  CHECK(bench.read(bench.dir / "out").find("not on " + std::string(host) + ":") != std::string::npos);  // bash's $HOSTNAME
}

TEST_CASE("exec::batch_script refuses a node without the assigned GPU devices", "[exec][slurm]") {
  ScriptBench bench;
  CHECK(bench.run(options_with(bench.engine, false), "SLURM_JOB_GPUS=1") == k_script_no_gpu_device);
  CHECK(bench.read(bench.dir / "out").find("/dev/dri/renderD90001 not found on") != std::string::npos);
  CHECK_FALSE(fs::exists(bench.log()));  // no container was started
}

TEST_CASE("exec::batch_script refuses a node that does not see the data dir", "[exec][slurm]") {
  ScriptBench bench;
  fs::remove_all(bench.workspace / "artifacts");
  CHECK(bench.run(options_with(bench.engine, true), "SLURM_JOB_GPUS=0") == k_script_no_workspace);
  CHECK(bench.read(bench.dir / "out").find("mount the data dir at the same path") != std::string::npos);
}

TEST_CASE("exec::batch_script reports a failed engine run and leaves no running marker", "[exec][slurm]") {
  ScriptBench bench;
  REQUIRE(util::write_file_atomic(bench.engine, "#!/bin/bash\n[ \"$1\" = run ] && exit 125\nexit 0\n", 0755));
  CHECK(bench.run(options_with(bench.engine, true), "") == k_script_engine_failed);
  CHECK_FALSE(fs::exists(bench.workspace / "slurm" / "running"));
  CHECK(bench.read(bench.dir / "out").find("run failed on") != std::string::npos);
}

TEST_CASE("exec::batch_script removes a container left by an earlier attempt when run says so", "[exec][slurm]") {
  ScriptBench bench;
  // `run` fails while the marker file is there, as podman does for a name in use.
  fs::path in_use = bench.dir / "in-use";
  REQUIRE(util::write_file_atomic(in_use, ""));
  REQUIRE(util::write_file_atomic(bench.engine,
                                  "#!/bin/bash\necho \"$*\" >>\"$FAKE_LOG\"\n"
                                  "case \"$1\" in run) [ -e " + shell_quote(in_use.string()) + " ] && exit 125; echo cid ;;"
                                  " rm) rm -f " + shell_quote(in_use.string()) + " ;; wait) echo 0 ;; esac\n",
                                  0755));
  CHECK(bench.run(options_with(bench.engine, true), "SLURM_JOB_GPUS=0") == 0);
  std::string calls = bench.read(bench.log());
  auto first_run = calls.find("run ");
  auto removal = calls.find("rm -f jgrid-job_01TEST");
  auto second_run = calls.find("run ", first_run + 1);
  CHECK(first_run < removal);
  CHECK(removal < second_run);
  CHECK(second_run != std::string::npos);
}

TEST_CASE("exec::batch_script leaves the started marker before anything else", "[exec][slurm]") {
  ScriptBench bench;
  fs::path started = bench.workspace / "slurm" / "started";
  // The engine records whether the marker was there when it was first called.
  REQUIRE(util::write_file_atomic(bench.engine,
                                  "#!/bin/bash\n[ -e \"$FAKE_LOG\" ] || { [ -e " + shell_quote(started.string()) +
                                      " ] && echo marked || echo unmarked; } >>\"$FAKE_LOG\"\n"
                                      "echo \"$*\" >>\"$FAKE_LOG\"\ncase \"$1\" in wait) echo 0 ;; esac\n",
                                  0755));
  CHECK(bench.run(options_with(bench.engine, true), "SLURM_JOB_GPUS=0") == 0);
  CHECK(bench.read(bench.log()).rfind("marked\nrun ", 0) == 0);
  CHECK(fs::exists(started));
}

TEST_CASE("exec::batch_script leaves the started marker even when it cannot go on", "[exec][slurm]") {
  ScriptBench bench;
  fs::remove_all(bench.workspace / "artifacts");
  CHECK(bench.run(options_with(bench.engine, true), "SLURM_JOB_GPUS=0") == k_script_no_workspace);
  CHECK(fs::exists(bench.workspace / "slurm" / "started"));
  CHECK_FALSE(fs::exists(bench.workspace / "slurm" / "running"));
}

TEST_CASE("exec::batch_script asks scontrol for the GPUs when Slurm sets no SLURM_JOB_GPUS", "[exec][slurm]") {
  ScriptBench bench;
  fs::path scontrol = bench.engine.parent_path() / "scontrol";
  REQUIRE(util::write_file_atomic(scontrol,
                                  "#!/bin/bash\necho \"scontrol $*\" >>\"$FAKE_LOG\"\n"
                                  "echo '   Nodes=n1 CPU_IDs=0 Mem=0 GRES=gpu:mi300x:3(IDX:0-1,3)'\n",
                                  0755));
  std::string path = "PATH=" + shell_quote(scontrol.parent_path().string()) + ":\"$PATH\"";
  CHECK(bench.run(options_with(bench.engine, true), path + " SLURM_JOB_ID=42") == 0);
  std::string calls = bench.read(bench.log());
  INFO(calls);
  CHECK(calls.rfind("scontrol show job -d 42\n", 0) == 0);
  CHECK(calls.find("-e JGRID_SLURM_GPUS=0,1,3") != std::string::npos);
}

TEST_CASE("exec::batch_script runs no scontrol when Slurm sets SLURM_JOB_GPUS", "[exec][slurm]") {
  ScriptBench bench;
  fs::path scontrol = bench.engine.parent_path() / "scontrol";
  REQUIRE(util::write_file_atomic(scontrol, "#!/bin/bash\necho \"scontrol $*\" >>\"$FAKE_LOG\"\n", 0755));
  std::string path = "PATH=" + shell_quote(scontrol.parent_path().string()) + ":\"$PATH\"";
  CHECK(bench.run(options_with(bench.engine, true), path + " SLURM_JOB_ID=42 SLURM_JOB_GPUS=5") == 0);
  std::string calls = bench.read(bench.log());
  INFO(calls);
  CHECK(calls.find("scontrol") == std::string::npos);
  CHECK(calls.find("-e JGRID_SLURM_GPUS=5") != std::string::npos);
}
