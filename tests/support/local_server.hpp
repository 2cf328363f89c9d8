#pragma once
// Integration fixture for the local container node: a TestServer whose only
// node is the local one, run by the real podman executor (sandbox engine
// args of sandbox.md, no GPU unless a sysfs fixture is given), with late
// screening as serve wires it. Tests using it carry the [podman] tag.
#include <chrono>
#include <cstdlib>
#include <thread>

#include "jgrid/engine/late_screening.hpp"
#include "jgrid/exec/container_executor.hpp"
#include "jgrid/exec/local_node.hpp"
#include "podman_ready.hpp"
#include "test_server.hpp"

namespace jgrid::test {


struct LocalServerOptions {
  std::string sysfs_fixture;  // "" no GPU (gpu_optional), else tests/fixtures/sysfs/<name>
  bool image_catalog = false; // screen on submit with the engine's images
};

inline fs::path sysfs_fixture(const std::string& name) {
  return fs::path(__FILE__).parent_path().parent_path() / "fixtures/sysfs" / name;
}

inline exec::ContainerOptions local_container_options(const LocalServerOptions& local) {
  exec::ContainerOptions options;
  options.engine = "podman";
  options.engine_args = {"--runtime", "runc", "--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1024:1024"};
  options.gpu_optional = local.sysfs_fixture.empty();
  options.attach = exec::GpuAttach::devices;
  options.selinux_relabel = false;
  options.screen_image = engine::late_screen_hook("amd");
  if (!local.sysfs_fixture.empty()) {
    fs::path root = sysfs_fixture(local.sysfs_fixture);
    exec::GpuDetectRoots roots{root / "sys", root / "dev", root / "etc", root / "opt/rocm", false};
    options.gpus = exec::detect_local_gpus(roots);
  }
  return options;
}

inline TestServerOptions local_server_options(LocalServerOptions local = {}) {
  TestServerOptions options;
  options.time_scale = 1.0;
  options.fleet = exec::Fleet{};
  options.extend = [local](exec::Fleet& fleet, exec::ExecutorRegistry& executors, const fs::path& data_dir,
                           const std::shared_ptr<util::Clock>& clock) {
    exec::ContainerOptions container = local_container_options(local);
    container.data_dir = data_dir;
    auto node = exec::make_local_node(container.gpus, {"podman", true, 1, ""});
    fleet.nodes.push_back(*node);
    if (local.image_catalog) fleet.images = exec::local_image_catalog("podman");
    executors["local"] = exec::make_container_executor(std::move(container), clock);
  };
  return options;
}

// A ROCm job for the local node running `script` with sh -c.
inline Json local_job(const std::string& script, const std::string& image = k_local_image) {
  return Json{{"name", "local-test"},     {"workload_type", "inference"}, {"image", image},
              {"gpu_vendor", "amd"},       {"runtime", "rocm"},           {"framework", "pytorch-rocm"},
              {"command", {"sh", "-c", script}}};
}

inline bool container_exists(const std::string& job_id) {
  return std::system(("podman container exists jgrid-" + job_id + " >/dev/null 2>&1").c_str()) == 0;
}

// True once the job's container is gone: it is removed after the job's end
// is recorded, so shortly after a client sees the job terminal. Gives up
// after a minute (a loaded machine can take podman that long).
inline bool container_removed(const std::string& job_id) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (container_exists(job_id) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  return !container_exists(job_id);
}

inline std::vector<std::string> event_types(const TestServer& server, const std::string& id) {
  std::vector<std::string> types;
  // Keep the reply alive: the loop would otherwise walk a destroyed temporary.
  HttpReply reply = server.get("/v1/jobs/" + id + "/events?limit=1000");
  for (const auto& event : reply.json["items"])
    types.push_back(event["type"].get<std::string>());
  return types;
}

inline Json event_of(const TestServer& server, const std::string& id, const std::string& type) {
  // Keep the reply alive: the loop would otherwise walk a destroyed temporary.
  HttpReply reply = server.get("/v1/jobs/" + id + "/events?limit=1000");
  for (const auto& event : reply.json["items"])
    if (event["type"] == type) return event;
  return Json();
}

inline std::vector<std::string> log_lines(const TestServer& server, const std::string& id,
                                          const std::string& stream = "all") {
  std::vector<std::string> lines;
  // Keep the reply alive: the loop would otherwise walk a destroyed temporary.
  HttpReply reply = server.get("/v1/jobs/" + id + "/logs?limit=1000&stream=" + stream);
  for (const auto& entry : reply.json["items"])
    lines.push_back(entry["message"].get<std::string>());
  return lines;
}

}  // namespace jgrid::test
