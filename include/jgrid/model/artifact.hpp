#pragma once
// A file the workload left under /workspace/artifacts, collected at its end.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace jgrid::model {

struct Artifact {
  std::string id;            // art_…
  std::string job_id;
  std::string filename;      // path under /workspace/artifacts: "result.json", "plots/a.png"
  std::string content_type;
  std::int64_t size_bytes = 0;
  std::string sha256;
  std::int64_t created_ms = 0;
};

// docs/api.md §2.8 artifact object.
nlohmann::json artifact_to_api(const Artifact& artifact);

// Content type from the file extension ("application/octet-stream" when unknown).
std::string content_type_for(const std::string& filename);

}  // namespace jgrid::model
