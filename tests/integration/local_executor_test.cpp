// docs/rocm.md §4 through the HTTP API: jobs run as real podman containers on the
// local node (no GPU here: --local-gpu-optional), late screening, and the
// argv of a 2-GPU job on the mi300x_x8 fixture. Tagged [podman].
#include <fstream>

#include "local_server.hpp"

using namespace jgrid::test;
using namespace std::chrono_literals;

namespace {

Json artifact_named(const TestServer& server, const std::string& id, const std::string& name) {
  // Keep the reply alive: the loop would otherwise walk a destroyed temporary.
  HttpReply reply = server.get("/v1/jobs/" + id + "/artifacts");
  for (const auto& artifact : reply.json["artifacts"])
    if (artifact["filename"] == name) return artifact;
  return Json();
}

std::string download(const TestServer& server, const std::string& id, const Json& artifact) {
  auto link = server.post("/v1/jobs/" + id + "/artifacts/" + artifact["artifact_id"].get<std::string>() + "/download",
                          Json::object());
  REQUIRE(link.status == 200);
  return server.get(local_part(server, link.json["url"])).body;
}

bool has(const std::vector<std::string>& items, const std::string& item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

Json upload(const TestServer& server, const std::string& filename, const std::string& kind, const std::string& bytes) {
  auto created = server.post("/v1/job-inputs", {{"filename", filename}, {"content_type", "text/plain"}, {"kind", kind}});
  REQUIRE(created.status == 200);
  Json up = created.json["upload"];
  REQUIRE(server.put_raw(local_part(server, up["upload_url"]), bytes, {}, "text/plain").status / 100 == 2);
  auto done = server.post(local_part(server, up["complete_url"]), {{"token", up["token"]}});
  REQUIRE(done.status == 200);
  return done.json;
}

}  // namespace

TEST_CASE("local: a ROCm job runs in a container, logs live, result.json downloads", "[podman][local]") {
  REQUIRE_PODMAN_OR_SKIP();
  TestServer server(local_server_options());
  auto node = server.get("/v1/nodes").json["nodes"][0];
  CHECK(node["source"] == "local");
  CHECK(node["gpu_model"] == "no-gpu");
  Json body = local_job(
      "echo first-line; sleep 2; echo '{\"label\": \"EAR99\"}' > /workspace/artifacts/result.json; echo done");
  body["expected_artifacts"] = {"/workspace/artifacts/result.json"};
  std::string id = server.submit(body);

  std::string live = server.read_stream("/v1/jobs/" + id + "/logs/live", {},
                                        [](const std::string& text) { return text.find("first-line") != std::string::npos; });
  CHECK(live.find("first-line") != std::string::npos);
  CHECK(server.get("/v1/jobs/" + id).json["status"] == "running");  // the line came before the end

  Json job = server.wait_terminal(id);
  INFO(job.dump());
  CHECK(job["status"] == "completed");
  CHECK(job["exit_code"] == 0);
  CHECK(job["image_digest"].get<std::string>().rfind("sha256:", 0) == 0);
  Json artifact = artifact_named(server, id, "result.json");
  REQUIRE(artifact.is_object());
  CHECK(download(server, id, artifact) == "{\"label\": \"EAR99\"}\n");
  CHECK(log_lines(server, id) == std::vector<std::string>{"first-line", "done"});
  auto argv = event_of(server, id, "job.container_starting")["data"]["argv"];
  CHECK(std::count(argv.begin(), argv.end(), "--device") == 0);  // no GPU: no device flag
  CHECK(container_removed(id));
}

TEST_CASE("local: stdout and stderr arrive over time; non-zero exit fails the job", "[podman][local]") {
  REQUIRE_PODMAN_OR_SKIP();
  TestServer server(local_server_options());
  std::string id = server.submit(local_job("for i in 1 2 3; do echo out $i; echo err $i >&2; sleep 0.4; done; exit 3"));
  Json job = server.wait_terminal(id);
  CHECK(job["status"] == "failed");
  CHECK(job["exit_code"] == 3);
  CHECK(job["failure"]["code"] == "NONZERO_EXIT");
  CHECK(log_lines(server, id, "stdout") == std::vector<std::string>{"out 1", "out 2", "out 3"});
  CHECK(log_lines(server, id, "stderr") == std::vector<std::string>{"err 1", "err 2", "err 3"});
  auto entries = server.get("/v1/jobs/" + id + "/logs?stream=stdout").json["items"];
  CHECK(entries[0]["created_at"] != entries[2]["created_at"]);  // streamed, not collected at the end
}

TEST_CASE("local: a job over its timeout is stopped and fails TIMED_OUT", "[podman][local]") {
  REQUIRE_PODMAN_OR_SKIP();
  TestServer server(local_server_options());
  Json body = local_job("trap 'exit 143' TERM; echo begin; while true; do sleep 1; done");
  body["timeout_seconds"] = 2;
  std::string id = server.submit(body);
  Json job = server.wait_terminal(id);
  CHECK(job["status"] == "failed");
  CHECK(job["failure"]["code"] == "TIMED_OUT");
  CHECK(job["timed_out"] == true);
  CHECK(has(event_types(server, id), "job.timed_out"));
  CHECK(log_lines(server, id) == std::vector<std::string>{"begin"});
  CHECK(container_removed(id));
}

TEST_CASE("local: cancel mid-run removes the container and keeps the partial logs", "[podman][local]") {
  REQUIRE_PODMAN_OR_SKIP();
  TestServer server(local_server_options());
  std::string id = server.submit(local_job("i=0; while true; do i=$((i+1)); echo tick $i; sleep 0.3; done"));
  server.wait_job(id, [&](const Json&) { return log_lines(server, id).size() >= 2; });
  auto cancelled = server.post("/v1/jobs/" + id + "/cancel", Json::object());
  REQUIRE(cancelled.status == 200);
  CHECK(server.get("/v1/jobs/" + id).json["status"] == "cancelled");
  auto deadline = std::chrono::steady_clock::now() + 12s;  // docs/rocm.md: gone within 12 s (stop -t 10, then kill)
  while (container_exists(id) && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(100ms);
  CHECK_FALSE(container_exists(id));
  auto kept = log_lines(server, id);
  CHECK(kept.size() >= 2);
  CHECK(kept[0] == "tick 1");
}

TEST_CASE("local: the job reads its uploaded input and script", "[podman][local]") {
  REQUIRE_PODMAN_OR_SKIP();
  TestServer server(local_server_options());
  Json input = upload(server, "data.csv", "input", "a,b\n1,2\n");
  Json script = upload(server, "run.sh", "script", "wc -l < /workspace/inputs/data.csv > /workspace/artifacts/count.txt\necho script ran\n");
  Json body = local_job("");
  body["command"] = {"sh", "/workspace/scripts/run.sh"};
  body["input_files"] = {input["input_id"]};
  body["script_files"] = {script["input_id"]};
  std::string id = server.submit(body);
  Json job = server.wait_terminal(id);
  INFO(job.dump());
  CHECK(job["status"] == "completed");
  CHECK(log_lines(server, id) == std::vector<std::string>{"script ran"});
  Json count = artifact_named(server, id, "count.txt");
  REQUIRE(count.is_object());
  CHECK(download(server, id, count) == "2\n");
}

TEST_CASE("local: a CUDA-labelled image under ROCm intent ends rejected without running", "[podman][local]") {
  REQUIRE_PODMAN_OR_SKIP();
  TestServer server(local_server_options());  // no catalog: only the executor's inspection knows the labels
  std::string id = server.submit(local_job("echo ran > /workspace/artifacts/ran.txt; echo ran", k_local_cuda_image));
  Json job = server.wait_terminal(id);
  INFO(job.dump());
  CHECK(job["status"] == "rejected");
  CHECK(job["status_reason"].get<std::string>().find("image.cuda_metadata") != std::string::npos);
  auto types = event_types(server, id);
  CHECK(has(types, "job.image_inspected"));
  CHECK(has(types, "job.rejected"));
  CHECK_FALSE(has(types, "job.container_starting"));
  CHECK_FALSE(has(types, "job.running"));
  CHECK(event_of(server, id, "job.rejected")["data"]["rule"] == "image.cuda_metadata");
  CHECK(log_lines(server, id).empty());
  CHECK(server.get("/v1/jobs/" + id + "/artifacts").json["artifacts"].empty());
  CHECK(container_removed(id));
}

TEST_CASE("local: with the engine's image catalog, the CUDA-labelled image is refused on submit", "[podman][local]") {
  REQUIRE_PODMAN_OR_SKIP();
  TestServer server(local_server_options({"", true}));
  auto reply = server.post("/v1/jobs", local_job("echo hi", k_local_cuda_image));
  INFO(reply.body);
  CHECK(reply.status == 422);
  CHECK(reply.body.find("image.cuda_metadata") != std::string::npos);
}

TEST_CASE("local: a missing image fails IMAGE_PULL_FAILED saying how to load it", "[podman][local]") {
  REQUIRE_PODMAN_OR_SKIP();
  TestServer server(local_server_options());
  std::string id = server.submit(local_job("echo hi", "localhost/jgrid-missing-image:latest"));
  Json job = server.wait_terminal(id);
  CHECK(job["failure"]["code"] == "IMAGE_PULL_FAILED");
  CHECK(job["status_message"].get<std::string>().find("podman load") != std::string::npos);
}

TEST_CASE("local: job fields with shell metacharacters or engine flags stay literal", "[podman][local]") {
  REQUIRE_PODMAN_OR_SKIP();
  TestServer server(local_server_options());
  const std::string hostile = "$(touch /workspace/artifacts/pwned); `touch /workspace/artifacts/pwned2` && echo x";
  Json body = local_job("");
  body["command"] = {"echo", "--privileged", hostile};
  body["environment"] = {{"X", "a; touch /workspace/artifacts/pwned3"}};
  std::string id = server.submit(body);
  Json job = server.wait_terminal(id);
  CHECK(job["status"] == "completed");
  CHECK(log_lines(server, id) == std::vector<std::string>{"--privileged " + hostile});
  CHECK(server.get("/v1/jobs/" + id + "/artifacts").json["artifacts"].empty());
  auto argv = event_of(server, id, "job.container_starting")["data"]["argv"];
  auto image_at = std::find(argv.begin(), argv.end(), k_local_image);
  REQUIRE(image_at != argv.end());
  CHECK(std::find(argv.begin(), image_at, "--privileged") == image_at);  // only after the image: an argument

  std::string sym = server.submit(local_job("ln -s /etc/passwd /workspace/artifacts/link; mkdir /workspace/artifacts/d; "
                                            "echo x > /workspace/artifacts/d/real.txt; mkfifo /workspace/artifacts/fifo"));
  server.wait_terminal(sym);
  auto artifacts = server.get("/v1/jobs/" + sym + "/artifacts").json["artifacts"];
  REQUIRE(artifacts.size() == 1);  // symlink and fifo not collected
  CHECK(artifacts[0]["path"] == "/workspace/artifacts/d/real.txt");

  Json dots = local_job("echo hi");
  dots["expected_artifacts"] = {"/workspace/artifacts/../../etc/passwd"};
  CHECK(server.post("/v1/jobs", dots).status == 400);
  Json bad_image = local_job("echo hi", "localhost/x:latest; touch /tmp/jgrid-pwned");
  auto reply = server.post("/v1/jobs", bad_image);
  if (reply.status == 202) server.wait_terminal(reply.json["job_id"]);
  CHECK_FALSE(fs::exists("/tmp/jgrid-pwned"));
}

TEST_CASE("local: a 2-GPU job on the mi300x_x8 fixture gets exactly its two GPUs in argv", "[podman][local]") {
  REQUIRE_PODMAN_OR_SKIP();
  TestServer server(local_server_options({"mi300x_x8", false}));
  auto node = server.get("/v1/nodes").json["nodes"][0];
  CHECK(node["gpu_count"] == 8);
  CHECK(node["gpu_model"] == "MI300X");
  CHECK(node["gpu_arch"] == "gfx942");
  Json body = local_job("echo hi");
  body["gpu_count"] = 2;
  std::string id = server.submit(body);
  server.wait_terminal(id);  // the fixture's device files are not devices: the run itself fails
  auto starting = event_of(server, id, "job.container_starting");
  REQUIRE(starting.is_object());
  std::vector<std::string> argv = starting["data"]["argv"];
  auto indices = starting["data"]["gpu_indices"];
  REQUIRE(indices == Json::array({0, 1}));
  std::string dev = (sysfs_fixture("mi300x_x8") / "dev").string();
  std::vector<std::string> devices, groups;
  for (std::size_t i = 0; i + 1 < argv.size() && argv[i] != "--"; ++i) {
    if (argv[i] == "--device") devices.push_back(argv[i + 1]);
    if (argv[i] == "--group-add") groups.push_back(argv[i + 1]);
  }
  CHECK(devices == std::vector<std::string>{dev + "/kfd", dev + "/dri/renderD128", dev + "/dri/renderD129"});
  CHECK(groups == std::vector<std::string>{"44", "110"});
  CHECK(has(argv, "--security-opt"));
  CHECK(has(argv, "seccomp=unconfined"));
  CHECK(has(argv, "ROCR_VISIBLE_DEVICES=0,1"));
  for (const auto& word : argv) {
    std::string lower = word;
    std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
    CHECK(lower.find("nvidia") == std::string::npos);
    CHECK(lower.find("--gpus") == std::string::npos);
  }
}
