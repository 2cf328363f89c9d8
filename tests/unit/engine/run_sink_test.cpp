#include <fstream>

#include "engine_fixture.hpp"
#include "jgrid/util/crypto.hpp"

using namespace jgrid;
using jgrid::model::JobStatus;
using jgrid::test::EngineFixture;
using jgrid::test::make_node;
using jgrid::test::make_spec;

namespace {

void write(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace

TEST_CASE("engine sink keeps output lines with per-job sequences and tails", "[engine]") {
  EngineFixture f({make_node("mi300x-1", "amd", 8)});
  model::Job job = f.submit_running(make_spec("amd"));
  f.executor->output(job.id, "stdout", "loading model");
  f.executor->output(job.id, "stderr", "warning: slow");
  f.executor->output(job.id, "stdout", "done");
  f.executor->finish(job.id, 0);
  REQUIRE(f.reaches(job.id, JobStatus::completed));
  auto logs = f.store->list_logs(store::LogQuery{job.id, 0, "all", 100});
  REQUIRE(logs.size() == 3);
  CHECK(logs[0].sequence == 1);
  CHECK(logs[0].category == "workload_stdout");
  CHECK(logs[1].category == "workload_stderr");
  CHECK(logs[2].sequence == 3);
  auto done = *f.stored(job.id);
  CHECK(done.stdout_tail == "loading model\ndone\n");
  CHECK(done.stderr_tail == "warning: slow\n");
}

TEST_CASE("engine sink bounds a job's log and says so once", "[engine]") {
  engine::EngineOptions options;
  options.max_log_bytes = 30;
  EngineFixture f({make_node("mi300x-1", "amd", 8)}, options);
  model::Job job = f.submit_running(make_spec("amd"));
  for (int i = 0; i < 10; ++i) f.executor->output(job.id, "stdout", "line-" + std::to_string(i));  // 7 bytes each
  f.executor->finish(job.id, 0);
  REQUIRE(f.reaches(job.id, JobStatus::completed));

  auto logs = f.store->list_logs(store::LogQuery{job.id, 0, "all", 100});
  REQUIRE(logs.size() == 5);
  CHECK(logs[3].message == "line-3");
  CHECK(logs[4].category == "platform");
  CHECK(logs[4].source == "platform");
  CHECK(logs[4].message.find("dropped") != std::string::npos);
  auto done = *f.stored(job.id);
  CHECK(done.log_truncated);
  CHECK(done.stdout_tail.find("line-9") != std::string::npos);
  auto completed = f.events(job.id, "job.completed");
  REQUIRE(completed.size() == 1);
  CHECK(completed[0].data["log_lines_dropped"] == 6);
}

TEST_CASE("engine sink stores a batch of lines in order, between single lines", "[engine]") {
  EngineFixture f({make_node("mi300x-1", "amd", 8)});
  model::Job job = f.submit_running(make_spec("amd"));
  f.executor->output(job.id, "stdout", "first");
  f.executor->output_lines(job.id, {{"stdout", "a"}, {"stderr", "b"}, {"stdout", ""}, {"stdout", "c"}});
  f.executor->output_lines(job.id, {});
  f.executor->output(job.id, "stderr", "last");
  f.executor->finish(job.id, 0);
  REQUIRE(f.reaches(job.id, JobStatus::completed));
  auto logs = f.store->list_logs(store::LogQuery{job.id, 0, "all", 100});
  std::vector<std::string> seen;
  for (std::size_t i = 0; i < logs.size(); ++i) {
    CHECK(logs[i].sequence == static_cast<std::int64_t>(i + 1));
    seen.push_back(logs[i].stream + ":" + logs[i].message);
  }
  CHECK(seen == std::vector<std::string>{"stdout:first", "stdout:a", "stderr:b", "stdout:", "stdout:c", "stderr:last"});
  auto done = *f.stored(job.id);
  CHECK(done.stdout_tail == "first\na\n\nc\n");
  CHECK(done.stderr_tail == "b\nlast\n");
}

TEST_CASE("engine sink bounds a batch of lines as it bounds single lines", "[engine]") {
  engine::EngineOptions options;
  options.max_log_bytes = 30;
  EngineFixture f({make_node("mi300x-1", "amd", 8)}, options);
  model::Job job = f.submit_running(make_spec("amd"));
  std::vector<exec::LogLine> batch;
  for (int i = 0; i < 3; ++i) batch.push_back({"stdout", "line-" + std::to_string(i)});  // 7 bytes each
  f.executor->output_lines(job.id, batch);
  batch.clear();
  for (int i = 3; i < 10; ++i) batch.push_back({i % 2 ? "stderr" : "stdout", "line-" + std::to_string(i)});
  f.executor->output_lines(job.id, batch);  // crosses the bound: line-3 fits, line-4 on are dropped
  f.executor->finish(job.id, 0);
  REQUIRE(f.reaches(job.id, JobStatus::completed));

  auto logs = f.store->list_logs(store::LogQuery{job.id, 0, "all", 100});
  REQUIRE(logs.size() == 5);
  CHECK(logs[3].message == "line-3");
  CHECK(logs[3].stream == "stderr");
  CHECK(logs[4].category == "platform");
  CHECK(logs[4].message.find("dropped") != std::string::npos);
  CHECK(f.stored(job.id)->log_truncated);
  auto completed = f.events(job.id, "job.completed");
  REQUIRE(completed.size() == 1);
  CHECK(completed[0].data["log_lines_dropped"] == 6);
}

TEST_CASE("engine sink has every line of a batch stored once the job has ended", "[engine]") {
  EngineFixture f({make_node("mi300x-1", "amd", 8)});
  model::Job job = f.submit_running(make_spec("amd"));
  std::vector<exec::LogLine> batch;
  std::string expected_tail;
  for (int i = 0; i < 5000; ++i) {
    batch.push_back({"stdout", "line " + std::to_string(i)});
    if (i >= 5000 - 3) expected_tail += "line " + std::to_string(i) + "\n";
  }
  f.executor->output_lines(job.id, batch);
  f.executor->finish(job.id, 0);  // right behind the batch, nothing in between
  REQUIRE(f.reaches(job.id, JobStatus::completed));
  CHECK(f.store->max_log_sequence(job.id) == 5000);
  auto last = f.store->list_logs(store::LogQuery{job.id, 0, "all", 1, 1});
  REQUIRE(last.size() == 1);
  CHECK(last[0].message == "line 4999");
  auto done = *f.stored(job.id);
  CHECK(done.stdout_tail.size() <= model::k_tail_bytes);
  CHECK(done.stdout_tail.size() > model::k_tail_bytes - 20);
  CHECK(done.stdout_tail.rfind("\n" + expected_tail) == done.stdout_tail.size() - expected_tail.size() - 1);
}

TEST_CASE("engine sink makes an executor that outpaces the store wait for it", "[engine]") {
  engine::EngineOptions options;
  options.max_log_backlog_bytes = 1000;
  EngineFixture f({make_node("mi300x-1", "amd", 8)}, options);
  model::Job job = f.submit_running(make_spec("amd"));
  std::vector<exec::LogLine> batch(20000, exec::LogLine{"stdout", std::string(99, 'y')});
  f.executor->output_lines(job.id, {batch.begin(), batch.begin() + 9});  // 900 bytes: below the bound
  f.executor->output_lines(job.id, batch);
  // The bound was crossed: the call returned only once the store had it all.
  CHECK(f.store->max_log_sequence(job.id) == 20009);
  for (int i = 0; i < 4; ++i) f.executor->output(job.id, "stderr", std::string(299, 'z'));  // the 4th crosses it
  CHECK(f.store->max_log_sequence(job.id) == 20013);  // single lines count too
  f.executor->finish(job.id, 0);
  REQUIRE(f.reaches(job.id, JobStatus::completed));
}

TEST_CASE("engine sink collects regular files of the artifacts dir", "[engine]") {
  EngineFixture f({make_node("mi300x-1", "amd", 8)});
  model::Job job = f.submit_running(make_spec("amd"));
  auto dir = f.executor->request_of(job.id).workspace_dir / "artifacts";
  write(dir / "result.json", "{\"ok\":true}");
  write(dir / "plots" / "a.png", "png-bytes");
  std::filesystem::create_symlink("/etc/hostname", dir / "link");
  f.executor->finish(job.id, 0);
  REQUIRE(f.reaches(job.id, JobStatus::completed));

  auto artifacts = f.store->list_artifacts(job.id);
  REQUIRE(artifacts.size() == 2);
  std::map<std::string, model::Artifact> by_name;
  for (const auto& artifact : artifacts) by_name[artifact.filename] = artifact;
  REQUIRE(by_name.count("result.json"));
  REQUIRE(by_name.count("plots/a.png"));
  CHECK(by_name["result.json"].sha256 == util::sha256_hex("{\"ok\":true}"));
  CHECK(by_name["result.json"].size_bytes == 11);
  CHECK(by_name["result.json"].content_type == "application/json");
  CHECK(by_name["result.json"].id.rfind("art_", 0) == 0);
  auto collected = f.events(job.id, "job.artifacts_collected");
  REQUIRE(collected.size() == 1);
  CHECK(collected[0].data["count"] == 2);
  CHECK(collected[0].data["names"] == nlohmann::json{"plots/a.png", "result.json"});
  CHECK(collected[0].phase == "finalizing");
}

TEST_CASE("engine sink ends failed runs with their failure", "[engine]") {
  EngineFixture f({make_node("mi300x-1", "amd", 8)});
  model::Job job = f.submit_running(make_spec("amd"));
  SECTION("non-zero exit") {
    f.executor->finish(job.id, 3);
    REQUIRE(f.reaches(job.id, JobStatus::failed));
    auto failed = *f.stored(job.id);
    CHECK(failed.exit_code == 3);
    CHECK(failed.failure->code == "NONZERO_EXIT");
    CHECK(failed.failure->summary == "workload exited with code 3");
    CHECK(f.event_types(job.id).back() == "job.failed");
  }
  SECTION("timeout") {
    exec::RunOutcome outcome;
    outcome.exit_code = 137;
    outcome.timed_out = true;
    f.executor->finish(job.id, outcome);
    REQUIRE(f.reaches(job.id, JobStatus::failed));
    auto failed = *f.stored(job.id);
    CHECK(failed.timed_out);
    CHECK(failed.failure->code == "TIMED_OUT");
    auto types = f.event_types(job.id);
    CHECK(std::vector<std::string>(types.end() - 2, types.end()) ==
          std::vector<std::string>{"job.timed_out", "job.failed"});
  }
  CHECK(f.engine->nodes().at(0).gpus_free == 8);
}

TEST_CASE("engine sink rejects a job refused at provisioning", "[engine]") {
  EngineFixture f({make_node("mi300x-1", "amd", 8)});
  model::Job job = f.submit(make_spec("amd"));
  REQUIRE(f.executor->wait_started(1));
  f.executor->step(job.id, model::Phase::provisioning, "job.provisioning");
  exec::RunOutcome outcome;
  outcome.rejected = true;
  outcome.rejected_rule = "image.cuda_metadata";
  outcome.message = "image is built on CUDA";
  f.executor->finish(job.id, outcome);
  REQUIRE(f.reaches(job.id, JobStatus::rejected));
  auto rejected = f.events(job.id, "job.rejected");
  REQUIRE(rejected.size() == 1);
  CHECK(rejected[0].data["rule"] == "image.cuda_metadata");
  CHECK_FALSE(f.stored(job.id)->failure);
}

TEST_CASE("engine sink ignores calls for a job that already ended", "[engine]") {
  EngineFixture f({make_node("mi300x-1", "amd", 8)});
  model::Job job = f.submit_running(make_spec("amd"));
  f.executor->finish(job.id, 0);
  REQUIRE(f.reaches(job.id, JobStatus::completed));
  auto before = f.event_types(job.id);
  f.executor->output(job.id, "stdout", "late line");
  f.executor->step(job.id, model::Phase::workload_execution, "job.running");
  f.executor->finish(job.id, 1);
  CHECK(f.event_types(job.id) == before);
  CHECK(f.store->list_logs(store::LogQuery{job.id, 0, "all", 100}).empty());
  CHECK(f.stored(job.id)->status == JobStatus::completed);
}
