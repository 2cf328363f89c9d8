#pragma once
// One line of a job's log.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace jgrid::model {

struct LogEntry {
  std::string job_id;
  std::int64_t sequence = 0;    // from 1 within the job; entry_id is its decimal string
  std::string stream;           // stdout | stderr | system (platform lines)
  std::string category;         // workload_stdout | workload_stderr | platform
  std::string source = "workload";  // workload | platform
  std::string message;          // one line, without its trailing newline
  bool truncated = false;
  std::int64_t created_ms = 0;
};

// docs/api.md §2.5 entry: level is "info" for stdout and platform, "error" for stderr.
nlohmann::json log_entry_to_api(const LogEntry& entry);

}  // namespace jgrid::model
