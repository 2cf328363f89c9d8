#pragma once
// Shared helpers of the store tests: temporary directories and small model
// values with the fields the store indexes.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "jgrid/store/store.hpp"

namespace jgrid::store::testing {

namespace fs = std::filesystem;

// A fresh directory under /tmp, removed with everything in it at the end.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "jgrid-store-test-XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    m_path = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(m_path, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  fs::path file(const std::string& name) const { return m_path / name; }
  const fs::path& path() const { return m_path; }

 private:
  fs::path m_path;
};

inline std::unique_ptr<Store> open_store(const std::string& path) {
  auto store = Store::open(StoreOptions{path});
  if (!store) FAIL("open " << path << ": " << store.error().code << " " << store.error().message);
  return std::move(store).value();
}

// "job_0007": ids that sort like creation order, as real ids do.
inline std::string job_id(int n) {
  char text[32];
  std::snprintf(text, sizeof text, "job_%04d", n);
  return text;
}

inline model::Job make_job(int n, model::JobStatus status = model::JobStatus::queued) {
  model::Job job;
  job.id = job_id(n);
  job.spec.edit().name = "job " + std::to_string(n);
  job.spec.edit().image = "localhost/fake-rocm:latest";
  job.spec.edit().command = {"sh", "-c", "echo hi"};
  job.status = status;
  job.created_ms = 1'700'000'000'000 + n;
  job.updated_ms = job.created_ms;
  return job;
}

inline model::Event make_event(std::int64_t seq, const std::string& job, std::int64_t sequence,
                               const std::string& type = "job.submitted") {
  model::Event event;
  event.seq = seq;
  event.id = "evt_" + std::to_string(seq);
  event.job_id = job;
  event.sequence = sequence;
  event.type = type;
  event.title = "title " + std::to_string(seq);
  event.created_ms = 1'700'000'000'000 + seq;
  event.data = {{"n", seq}};
  return event;
}

inline model::LogEntry make_log(const std::string& job, std::int64_t sequence, const std::string& stream = "stdout") {
  model::LogEntry entry;
  entry.job_id = job;
  entry.sequence = sequence;
  entry.stream = stream;
  entry.category = stream == "system" ? "platform" : "workload_" + stream;
  entry.source = stream == "system" ? "platform" : "workload";
  entry.message = stream + " line " + std::to_string(sequence);
  entry.created_ms = 1'700'000'000'000 + sequence;
  return entry;
}

inline WriteBatch jobs_batch(std::initializer_list<model::Job> jobs) {
  WriteBatch batch;
  batch.jobs = jobs;
  return batch;
}

}  // namespace jgrid::store::testing
