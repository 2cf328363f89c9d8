#include "jgrid/model/artifact.hpp"

#include <map>

#include "jgrid/model/job_spec.hpp"
#include "jgrid/util/strings.hpp"
#include "jgrid/util/time.hpp"

namespace jgrid::model {
namespace {

const std::map<std::string, std::string, std::less<>>& content_types() {
  static const std::map<std::string, std::string, std::less<>> k_types = {
      {"json", "application/json"},
      {"jsonl", "application/x-ndjson"},
      {"txt", "text/plain"},
      {"log", "text/plain"},
      {"md", "text/markdown"},
      {"csv", "text/csv"},
      {"tsv", "text/tab-separated-values"},
      {"html", "text/html"},
      {"htm", "text/html"},
      {"xml", "application/xml"},
      {"yaml", "application/yaml"},
      {"yml", "application/yaml"},
      {"png", "image/png"},
      {"jpg", "image/jpeg"},
      {"jpeg", "image/jpeg"},
      {"gif", "image/gif"},
      {"svg", "image/svg+xml"},
      {"webp", "image/webp"},
      {"pdf", "application/pdf"},
      {"zip", "application/zip"},
      {"gz", "application/gzip"},
      {"tar", "application/x-tar"},
      {"parquet", "application/vnd.apache.parquet"},
      {"npy", "application/x-npy"},
      {"onnx", "application/octet-stream"},
      {"pt", "application/octet-stream"},
      {"safetensors", "application/octet-stream"},
      {"bin", "application/octet-stream"},
  };
  return k_types;
}

}  // namespace

std::string content_type_for(const std::string& filename) {
  auto slash = filename.find_last_of('/');
  std::string base = slash == std::string::npos ? filename : filename.substr(slash + 1);
  auto dot = base.find_last_of('.');
  if (dot == std::string::npos || dot == 0) return "application/octet-stream";
  auto it = content_types().find(util::to_lower(base.substr(dot + 1)));
  return it != content_types().end() ? it->second : "application/octet-stream";
}

nlohmann::json artifact_to_api(const Artifact& artifact) {
  std::string created = util::format_time(artifact.created_ms);
  return {{"artifact_id", artifact.id},
          {"id", artifact.id},
          {"job_id", artifact.job_id},
          {"filename", artifact.filename},
          {"name", artifact.filename},
          {"path", std::string(k_artifacts_root) + artifact.filename},
          {"content_type", artifact.content_type},
          {"mime_type", artifact.content_type},
          {"size_bytes", artifact.size_bytes},
          {"sha256", artifact.sha256},
          {"status", "ready"},
          {"ready", true},
          {"created_at", created},
          {"uploaded_at", created}};
}

}  // namespace jgrid::model
