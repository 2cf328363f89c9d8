#include "jgrid/model/job_input.hpp"

#include "jgrid/util/strings.hpp"
#include "jgrid/util/time.hpp"

namespace jgrid::model {

std::string mount_path(const JobInput& input) {
  return (input.kind == "script" ? "/workspace/scripts/" : "/workspace/inputs/") + input.filename;
}

Status validate_filename(const std::string& filename, const std::string& field) {
  auto refuse = [&](const std::string& why) {
    return make_error("INVALID_REQUEST", field + ": expected a base file name, " + why,
                      nlohmann::json{{"field", field}});
  };
  if (filename.empty()) return refuse("got an empty string");
  if (filename.size() > 255) return refuse("got more than 255 bytes");
  if (filename.find_first_of("/\\") != std::string::npos) return refuse("got a path separator");
  if (filename.find("..") != std::string::npos) return refuse("got \"..\"");
  if (filename.find('\0') != std::string::npos || util::has_control_char(filename))
    return refuse("got a control character");
  return Ok{};
}

nlohmann::json job_input_to_api(const JobInput& input) {
  nlohmann::json out = {{"input_id", input.id},
                        {"id", input.id},
                        {"filename", input.filename},
                        {"content_type", input.content_type},
                        {"kind", input.kind},
                        {"status", input.status},
                        {"ready", input.status == "ready"},
                        {"size_bytes", input.size_bytes ? nlohmann::json(*input.size_bytes) : nlohmann::json()},
                        {"mount_path", mount_path(input)},
                        {"created_at", util::format_time(input.created_ms)}};
  if (!input.sha256.empty()) out["sha256"] = input.sha256;
  if (input.expires_ms > 0 && input.status != "ready") out["expires_at"] = util::format_time(input.expires_ms);
  return out;
}

}  // namespace jgrid::model
