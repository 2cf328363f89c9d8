#include "jgrid/exec/container_executor.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "exec/container_process.hpp"
#include "podman_ready.hpp"
#include "recording_sink.hpp"

using namespace jgrid;
using namespace jgrid::exec;
using namespace jgrid::exec::testing;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

using jgrid::test::k_local_image;

ContainerOptions podman_options() {
  ContainerOptions options;
  options.engine = "podman";
  options.engine_args = {"--runtime", "runc", "--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1024:1024"};
  options.gpu_optional = true;  // no GPU here
  options.attach = GpuAttach::devices;
  options.selinux_relabel = false;
  return options;
}

bool container_exists(const std::string& job_id) {
  auto result = run_command({"podman", "container", "exists", container_name_for(job_id)});
  return result.ok() && result->exit_code == 0;
}

// True once the container is gone: it is removed after finished(). Gives up
// after a minute (a loaded machine can take podman that long).
bool container_removed(const std::string& job_id) {
  auto deadline = std::chrono::steady_clock::now() + 60s;
  while (container_exists(job_id) && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(100ms);
  return !container_exists(job_id);
}

struct Harness {
  std::shared_ptr<util::Clock> clock = util::make_real_clock();
  RecordingSink sink{clock};
  TempWorkspace workspace;
  std::shared_ptr<ContainerExecutor> executor;

  explicit Harness(ContainerOptions options = podman_options()) {
    executor = make_container_executor(std::move(options), clock);
  }
  RunRequest request(const std::string& tag, std::vector<std::string> command) const {
    RunRequest request = make_request("job_" + tag + util::random_hex(5), workspace.path());
    request.job.spec.edit().image = k_local_image;
    request.job.spec.edit().command = std::move(command);
    request.node.source = "local";
    return request;
  }
  RunOutcome run(const RunRequest& request) {
    REQUIRE(executor->start(request, sink).ok());
    auto outcome = sink.wait_finished(request.job.id, 60s);
    REQUIRE(outcome);
    return *outcome;
  }
};

}  // namespace

TEST_CASE("exec::ContainerExecutor refuses a job it cannot run before starting anything", "[exec][container]") {
  ContainerOptions options = podman_options();
  options.gpu_optional = false;
  Harness harness(options);
  RunRequest request = harness.request("nogpu", {"true"});
  Status started = harness.executor->start(request, harness.sink);
  REQUIRE_FALSE(started.ok());
  CHECK(started.error().code == "START_FAILED");
  CHECK(started.error().message.find("no usable AMD GPU") != std::string::npos);

  options.engine = "no-such-engine-jgrid";
  Harness missing(options);
  Status no_engine = missing.executor->start(missing.request("noengine", {"true"}), missing.sink);
  REQUIRE_FALSE(no_engine.ok());
  CHECK(no_engine.error().message.find("no-such-engine-jgrid not found on PATH") != std::string::npos);
  CHECK(missing.executor->kind() == "no-such-engine-jgrid");
}

TEST_CASE("exec::ContainerExecutor refuses GPU indices the machine does not have", "[exec][container]") {
  ContainerOptions options = podman_options();
  options.gpus.kfd_present = true;
  options.gpus.gpus.push_back(LocalGpu{});
  options.gpu_optional = false;
  options.engine = "true";  // on PATH everywhere; the GPU check comes before any engine call
  Harness harness(options);
  RunRequest request = harness.request("badgpu", {"true"});
  model::Placement placement;
  placement.gpu_indices = {0, 3};
  request.job.placement = placement;
  Status started = harness.executor->start(request, harness.sink);
  REQUIRE_FALSE(started.ok());
  CHECK(started.error().message.find("GPU index 3 is not on this machine (1 GPUs)") != std::string::npos);
}

TEST_CASE("exec::ContainerExecutor runs a job: output lines, artifacts, exit 0", "[exec][container][podman]") {
  REQUIRE_PODMAN_OR_SKIP();
  Harness harness;
  RunRequest request =
      harness.request("ok", {"sh", "-c",
                             "echo line one; echo \"secret=$SECRET\"; echo \"id=$JGRID_JOB_ID\"; "
                             "echo warn >&2; printf '{\"ok\": true}' > /workspace/artifacts/result.json"});
  request.job.spec.edit().environment = {{"SECRET", "hunter2 $(id) ;"}};
  RunOutcome outcome = harness.run(request);
  const std::string& id = request.job.id;
  CHECK(outcome.exit_code == 0);
  CHECK(outcome.failure_code.empty());
  CHECK_FALSE(outcome.timed_out);
  CHECK(harness.sink.lines(id, "stdout") == std::vector<std::string>{"line one", "secret=hunter2 $(id) ;", "id=" + id});
  CHECK(harness.sink.lines(id, "stderr") == std::vector<std::string>{"warn"});
  CHECK(read_text(harness.workspace.path() / "artifacts" / "result.json") == "{\"ok\": true}");
  CHECK(fs::is_directory(harness.workspace.path() / "inputs"));
  CHECK(harness.sink.step_types(id) == std::vector<std::string>{"job.provisioning", "job.image_inspected",
                                                                "job.inputs_prepared", "job.container_starting",
                                                                "job.running"});
  auto digest = harness.sink.find(id, "digest", "");
  REQUIRE(digest);
  CHECK(digest->text.rfind("sha256:", 0) == 0);
  auto inspected = harness.sink.find(id, "step", "job.image_inspected");
  CHECK(inspected->data["labels"]["io.junglegrid.runtime"] == "rocm");
  CHECK(inspected->data["env"]["ROCM_VERSION"] == "6.2.0");
  CHECK(inspected->data["digest"] == digest->text);
  auto starting = harness.sink.find(id, "step", "job.container_starting");
  std::string argv = starting->data["argv"].dump();
  CHECK(argv.find("SECRET=***") != std::string::npos);
  CHECK(argv.find("hunter2") == std::string::npos);
  CHECK(starting->data["argv"][0] == "podman");
  CHECK(starting->data["attach"] == "none");
  CHECK(container_removed(id));  // after finished()
  CHECK_FALSE(fs::exists(container_log_file(harness.workspace.path(), id)));  // the output file went with it
}

TEST_CASE("exec::ContainerExecutor keeps long lines whole and a last line without newline", "[exec][container][podman]") {
  REQUIRE_PODMAN_OR_SKIP();
  Harness harness;
  // 16 KiB on one line: the engine writes it to the log file in pieces.
  RunRequest request = harness.request(
      "long", {"sh", "-c",
               "i=0; s=x; while [ $i -lt 14 ]; do s=$s$s; i=$((i+1)); done; "
               "echo first; echo $s; echo oops >&2; echo $s >&2; printf 'no newline'"});
  RunOutcome outcome = harness.run(request);
  const std::string& id = request.job.id;
  CHECK(outcome.exit_code == 0);
  const std::string long_line(16384, 'x');
  CHECK(harness.sink.lines(id, "stdout") == std::vector<std::string>{"first", long_line, "no newline"});
  CHECK(harness.sink.lines(id, "stderr") == std::vector<std::string>{"oops", long_line});
  auto starting = harness.sink.find(id, "step", "job.container_starting");
  CHECK(starting->data["argv"].dump().find("path=" + container_log_file(harness.workspace.path(), id).string()) !=
        std::string::npos);
}

TEST_CASE("exec::ContainerExecutor reports a nonzero exit as NONZERO_EXIT", "[exec][container][podman]") {
  REQUIRE_PODMAN_OR_SKIP();
  Harness harness;
  RunRequest request = harness.request("fail", {"sh", "-c", "echo before; exit 3"});
  RunOutcome outcome = harness.run(request);
  CHECK(outcome.exit_code == 3);
  CHECK(outcome.failure_code == "NONZERO_EXIT");
  CHECK(outcome.message == "workload exited with code 3");
  CHECK(harness.sink.lines(request.job.id, "stdout") == std::vector<std::string>{"before"});
  CHECK(container_removed(request.job.id));
}

TEST_CASE("exec::ContainerExecutor cancel stops and removes the container", "[exec][container][podman]") {
  REQUIRE_PODMAN_OR_SKIP();
  Harness harness;
  RunRequest request = harness.request("cancel", {"sleep", "30"});
  const std::string& id = request.job.id;
  REQUIRE(harness.executor->start(request, harness.sink).ok());
  REQUIRE(harness.sink.wait_step(id, "job.running", 30s));
  auto started = std::chrono::steady_clock::now();
  harness.executor->cancel(id);
  std::size_t calls = harness.sink.calls(id).size();
  // How fast the container goes is measured by bench/; here it must go at
  // all (a loaded machine can take podman well past its 10 s stop grace).
  while (container_exists(id) && std::chrono::steady_clock::now() - started < 60s) std::this_thread::sleep_for(100ms);
  CHECK_FALSE(container_exists(id));
  std::this_thread::sleep_for(300ms);
  CHECK(harness.sink.calls(id).size() == calls);  // nothing after cancel
  CHECK_FALSE(harness.sink.wait_finished(id, 0ms));
}

TEST_CASE("exec::ContainerExecutor stops a job at its timeout", "[exec][container][podman]") {
  REQUIRE_PODMAN_OR_SKIP();
  ContainerOptions options = podman_options();
  options.stop_grace_seconds = 1;
  Harness harness(options);
  RunRequest request = harness.request("timeout", {"sleep", "300"});
  request.job.spec.edit().timeout_seconds = 1;
  auto started = std::chrono::steady_clock::now();
  RunOutcome outcome = harness.run(request);
  CHECK(outcome.timed_out);
  CHECK(outcome.failure_code == "TIMED_OUT");
  CHECK(outcome.message == "workload exceeded its timeout of 1s and was stopped");
  // Far below the 300 s sleep: the timeout stopped it (how fast is for bench/).
  CHECK(std::chrono::steady_clock::now() - started < 120s);
  CHECK(container_removed(request.job.id));
}

TEST_CASE("exec::ContainerExecutor reports the engine's error when run fails", "[exec][container][podman]") {
  REQUIRE_PODMAN_OR_SKIP();
  ContainerOptions options = podman_options();
  options.engine_args.push_back("--no-such-flag-jgrid");
  Harness harness(options);
  RunRequest request = harness.request("runfail", {"true"});
  RunOutcome outcome = harness.run(request);
  CHECK(outcome.failure_code == "START_FAILED");
  CHECK_FALSE(outcome.exit_code);
  CHECK(outcome.message.rfind("podman run failed for " + request.job.id + ": exit 125: ", 0) == 0);
  CHECK(outcome.message.find("no-such-flag-jgrid") != std::string::npos);
  CHECK(container_removed(request.job.id));
}

TEST_CASE("exec::ContainerExecutor reports an image it cannot pull", "[exec][container][podman]") {
  REQUIRE_PODMAN_OR_SKIP();
  Harness harness;
  RunRequest request = harness.request("nopull", {"true"});
  request.job.spec.edit().image = "localhost:1/jgrid-no-such-image:latest";
  RunOutcome outcome = harness.run(request);
  CHECK(outcome.failure_code == "IMAGE_PULL_FAILED");
  CHECK(outcome.message.rfind("podman pull failed for " + request.job.id + ": exit ", 0) == 0);
  CHECK(harness.sink.step_types(request.job.id) == std::vector<std::string>{"job.provisioning"});
}

TEST_CASE("exec::ContainerExecutor rejects an image late screening blocks", "[exec][container][podman]") {
  REQUIRE_PODMAN_OR_SKIP();
  ContainerOptions options = podman_options();
  options.screen_image = [](const model::JobSpec&, const InspectedImage& image) -> std::optional<ImageRejection> {
    if (image.labels.count("io.junglegrid.runtime") && image.labels.at("io.junglegrid.runtime") == "rocm")
      return ImageRejection{"image.test_rule", "blocked by the test screen"};
    return std::nullopt;
  };
  Harness harness(options);
  RunRequest request = harness.request("reject", {"true"});
  RunOutcome outcome = harness.run(request);
  CHECK(outcome.rejected);
  CHECK(outcome.rejected_rule == "image.test_rule");
  CHECK(outcome.message == "blocked by the test screen");
  CHECK_FALSE(harness.sink.find(request.job.id, "step", "job.container_starting"));
  CHECK_FALSE(container_exists(request.job.id));
}

TEST_CASE("exec::ContainerExecutor reattaches to a container after a restart", "[exec][container][podman]") {
  REQUIRE_PODMAN_OR_SKIP();
  ContainerOptions keep = podman_options();
  keep.keep_containers_on_shutdown = true;
  Harness first(keep);
  RunRequest request = first.request("reattach", {"sh", "-c", "echo a; echo b; sleep 3; echo c; exit 5"});
  const std::string& id = request.job.id;
  REQUIRE(first.executor->start(request, first.sink).ok());
  REQUIRE(first.sink.wait_step(id, "job.running", 30s));
  first.executor->shutdown();
  REQUIRE(container_exists(id));

  Harness second;
  auto containers = second.executor->job_containers();
  REQUIRE(containers.ok());
  CHECK(std::any_of(containers->begin(), containers->end(),
                    [&](const JobContainer& c) { return c.job_id == id && c.state == "running"; }));
  REQUIRE(second.executor->reattach(request, second.sink, LogSkip{2, 0}).ok());
  auto outcome = second.sink.wait_finished(id, 30s);
  REQUIRE(outcome);
  CHECK(outcome->exit_code == 5);
  CHECK(outcome->failure_code == "NONZERO_EXIT");
  CHECK(second.sink.lines(id, "stdout") == std::vector<std::string>{"c"});
  CHECK(second.sink.step_types(id).empty());
  CHECK(container_removed(id));

  Status missing = second.executor->reattach(request, second.sink, {});
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().code == "NOT_FOUND");
  CHECK(second.executor->remove_container(id).ok());  // absent is fine
}
