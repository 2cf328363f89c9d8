#pragma once
// A RunSink that records every call (with the clock time it came at) and lets
// a test wait for a job's end.
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "jgrid/exec/executor.hpp"
#include "jgrid/exec/fleet.hpp"
#include "jgrid/util/clock.hpp"
#include "jgrid/util/ids.hpp"

namespace jgrid::exec::testing {

struct SinkCall {
  std::string kind;  // step | output | digest | finished
  std::string job_id;
  std::string type;  // event type (step), stream (output)
  model::Phase phase = model::Phase::queued;
  std::string text;  // message, line or digest
  nlohmann::json data;
  std::int64_t at_ms = 0;
};

class RecordingSink final : public RunSink {
 public:
  explicit RecordingSink(std::shared_ptr<util::Clock> clock) : m_clock(std::move(clock)) {}

  void step(const std::string& job_id, model::Phase phase, const std::string& event_type, const std::string& message,
            nlohmann::json data) override {
    record({"step", job_id, event_type, phase, message, std::move(data)});
  }
  void output(const std::string& job_id, const std::string& stream, const std::string& line) override {
    record({"output", job_id, stream, model::Phase::workload_execution, line, {}});
  }
  void image_digest(const std::string& job_id, const std::string& digest) override {
    record({"digest", job_id, "", model::Phase::provisioning, digest, {}});
  }
  void finished(const std::string& job_id, const RunOutcome& outcome) override {
    std::lock_guard lock(m_mutex);
    m_outcomes[job_id] = outcome;
    m_calls.push_back({"finished", job_id, outcome.failure_code, model::Phase::done, outcome.message, {},
                       m_clock->now_ms()});
    m_changed.notify_all();
  }

  // Waits up to `timeout` real time for finished(job_id).
  std::optional<RunOutcome> wait_finished(const std::string& job_id,
                                          std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    std::unique_lock lock(m_mutex);
    m_changed.wait_for(lock, timeout, [&] { return m_outcomes.count(job_id) > 0; });
    auto it = m_outcomes.find(job_id);
    return it == m_outcomes.end() ? std::nullopt : std::optional<RunOutcome>(it->second);
  }
  // Waits up to `timeout` for a step of `type`.
  bool wait_step(const std::string& job_id, const std::string& type,
                 std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    std::unique_lock lock(m_mutex);
    return m_changed.wait_for(lock, timeout, [&] { return find_locked(job_id, "step", type) != nullptr; });
  }

  std::vector<SinkCall> calls(const std::string& job_id) const {
    std::lock_guard lock(m_mutex);
    std::vector<SinkCall> out;
    for (const auto& call : m_calls)
      if (call.job_id == job_id) out.push_back(call);
    return out;
  }
  std::vector<std::string> step_types(const std::string& job_id) const {
    std::vector<std::string> out;
    for (const auto& call : calls(job_id))
      if (call.kind == "step") out.push_back(call.type);
    return out;
  }
  std::vector<std::string> lines(const std::string& job_id, const std::string& stream) const {
    std::vector<std::string> out;
    for (const auto& call : calls(job_id))
      if (call.kind == "output" && call.type == stream) out.push_back(call.text);
    return out;
  }
  std::optional<SinkCall> find(const std::string& job_id, const std::string& kind, const std::string& type) const {
    std::lock_guard lock(m_mutex);
    const SinkCall* call = find_locked(job_id, kind, type);
    return call ? std::optional<SinkCall>(*call) : std::nullopt;
  }

 private:
  void record(SinkCall call) {
    std::lock_guard lock(m_mutex);
    call.at_ms = m_clock->now_ms();
    m_calls.push_back(std::move(call));
    m_changed.notify_all();
  }
  const SinkCall* find_locked(const std::string& job_id, const std::string& kind, const std::string& type) const {
    for (const auto& call : m_calls)
      if (call.job_id == job_id && call.kind == kind && call.type == type) return &call;
    return nullptr;
  }

  std::shared_ptr<util::Clock> m_clock;
  mutable std::mutex m_mutex;
  std::condition_variable m_changed;
  std::vector<SinkCall> m_calls;
  std::map<std::string, RunOutcome> m_outcomes;
};

// A fresh workspace dir (with artifacts/) under the system temp dir, removed
// when the value goes away.
class TempWorkspace {
 public:
  TempWorkspace()
      : m_path(std::filesystem::temp_directory_path() / ("jgrid-exec-test-" + util::random_hex(8))) {
    std::filesystem::create_directories(m_path / "artifacts");
  }
  ~TempWorkspace() {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
  }
  const std::filesystem::path& path() const { return m_path; }
  // Writes `text` to path()/name and returns that path.
  std::string write(const std::string& name, const std::string& text) const {
    auto file = m_path / name;
    std::ofstream(file, std::ios::binary) << text;
    return file.string();
  }

 private:
  std::filesystem::path m_path;
};

// The whole file, as bytes ("" when it cannot be read).
inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Appends `text` to the file at `path`, creating it.
inline void append_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::app) << text;
}

// One record of a container log file as podman's k8s-file driver writes it.
inline std::string log_record(const std::string& stream, const std::string& tag, const std::string& text) {
  return "2026-12-03T08:22:53.999989987+00:00 " + stream + " " + tag + " " + text + "\n";
}

// A simulated node with fixed, short startup.
inline model::Node make_node(const std::string& name = "mi300x-east-1") {
  model::Node node;
  node.id = "node_" + name;
  node.name = name;
  node.pool = "mi300x-east";
  node.gpu_vendor = "amd";
  node.runtime = "rocm";
  node.runtime_version = "6.2";
  node.gpu_model = "MI300X";
  node.gpu_family = "instinct";
  node.gpu_class = "datacenter";
  node.gpu_count = node.gpus_free = 8;
  node.vram_gb = 192;
  node.region = "us-east";
  node.startup = {1.0, 1.0, 1000.0};
  return node;
}

inline RunRequest make_request(const std::string& job_id, const std::filesystem::path& workspace,
                               nlohmann::json sim = nullptr, model::Node node = make_node()) {
  RunRequest request;
  request.job.id = job_id;
  request.job.attempts = 1;
  request.job.spec.edit().image = "ghcr.io/acme/app:latest";
  request.job.spec.edit().command = {"python", "run.py"};
  request.job.spec.edit().sim = std::move(sim);
  request.node = std::move(node);
  request.workspace_dir = workspace;
  return request;
}

}  // namespace jgrid::exec::testing
