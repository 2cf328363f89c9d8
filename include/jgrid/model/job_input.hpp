#pragma once
// An uploaded input or script file (docs/api.md §2.9).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "jgrid/util/result.hpp"

namespace jgrid::model {

struct JobInput {
  std::string id;            // inp_…
  std::string workspace = "local";
  std::string filename;      // a base name (validated)
  std::string content_type = "application/octet-stream";
  std::string kind = "input";  // input | script
  std::string status = "pending";  // pending | ready
  std::optional<std::int64_t> size_bytes;
  std::string sha256;
  std::string token;         // upload token (secret)
  std::int64_t expires_ms = 0;
  std::int64_t created_ms = 0;
};

// "/workspace/inputs/<filename>" or "/workspace/scripts/<filename>".
std::string mount_path(const JobInput& input);

// A base name: non-empty, ≤ 255 bytes, no '/', '\\', "..", NUL or control
// character. Error INVALID_REQUEST naming `field`.
Status validate_filename(const std::string& filename, const std::string& field);

// docs/api.md §2.9 list item.
nlohmann::json job_input_to_api(const JobInput& input);

}  // namespace jgrid::model
