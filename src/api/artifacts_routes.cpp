// docs/api.md §2.8: artifact lists, signed download URLs and the bytes behind them.
#include <filesystem>
#include <system_error>

#include "api/errors.hpp"
#include "api/handlers.hpp"
#include "api/params.hpp"
#include "api/signing.hpp"
#include "jgrid/model/layout.hpp"
#include "jgrid/util/clock.hpp"
#include "jgrid/util/strings.hpp"
#include "jgrid/util/time.hpp"

namespace jgrid::api {
namespace {

namespace fs = std::filesystem;

std::string artifact_path(const model::Artifact& artifact) {
  return std::string(model::k_artifacts_root) + artifact.filename;
}

// The artifact of `job` named by id, by its filename or by its full path.
std::optional<model::Artifact> find_artifact(const Context& ctx, const model::Job& job, const std::string& key) {
  for (auto& artifact : ctx.store.list_artifacts(job.id))
    if (artifact.id == key || artifact.filename == key || artifact_path(artifact) == key) return artifact;
  return std::nullopt;
}

Error missing_artifact(const model::Job& job, const std::string& key) {
  if (!model::is_terminal(job.status) && !job.artifacts_ready)
    return make_error("ARTIFACT_NOT_READY", "artifact " + key + " of job " + job.id + " is not ready: the job is " +
                                                std::string(model::to_string(job.status)));
  return make_error("NOT_FOUND", "artifact not found: " + key + " (job " + job.id + ")");
}

// Collected filenames are relative paths below the artifacts dir; anything
// that could climb out of it is refused.
bool safe_relative(const std::string& filename) {
  if (filename.empty() || filename.front() == '/') return false;
  for (const auto& part : util::split(filename, '/'))
    if (part.empty() || part == "..") return false;
  return true;
}

}  // namespace

Result<Json> list_artifacts(const Context& ctx, const Call& call) {
  auto job = find_job(ctx, call);
  if (!job) return job.error();
  auto artifacts = ctx.store.list_artifacts(job->id);
  Json items = Json::array();
  for (const auto& artifact : artifacts) items.push_back(model::artifact_to_api(artifact));
  Json expected = Json::array();
  for (const auto& path : job->spec->expected_artifacts) {
    bool present = false;
    for (const auto& artifact : artifacts) present = present || artifact_path(artifact) == path;
    expected.push_back({{"path", path}, {"present", present}});
  }
  return Json{{"job_id", job->id}, {"artifacts", std::move(items)}, {"expected", std::move(expected)}};
}

Result<Json> download_artifact(const Context& ctx, const Call& call) {
  auto job = find_job(ctx, call);
  if (!job) return job.error();
  auto artifact = find_artifact(ctx, *job, call.capture(1));
  if (!artifact) return missing_artifact(*job, call.capture(1));
  std::int64_t expires_s = (util::wall_now_ms() + ctx.options.artifact_url_ttl_ms) / 1000;
  std::string url = call.base_url + "/v1/artifacts/" + util::percent_encode(artifact->id) + "/content?" +
                    signed_query(ctx.options.signing_secret, artifact->id, expires_s);
  return Json{{"job_id", job->id},
              {"artifact_id", artifact->id},
              {"artifact_name", artifact->filename},
              {"artifact", model::artifact_to_api(*artifact)},
              {"url", url},
              {"download_url", url},
              {"expires_at", util::format_time(expires_s * 1000)},
              {"ready", true},
              {"size_bytes", artifact->size_bytes},
              {"mime_type", artifact->content_type}};
}

Result<Reply> artifact_content(const Context& ctx, const Call& call) {
  const std::string& id = call.capture(0);
  if (auto signed_ok = verify_signature(ctx.options.signing_secret, id, call, util::wall_now_ms() / 1000); !signed_ok)
    return signed_ok.error();
  auto artifact = ctx.store.get_artifact(id);
  if (!artifact || !safe_relative(artifact->filename)) return not_found("artifact", id);
  fs::path file = model::job_artifacts_dir(ctx.options.data_dir, artifact->job_id) / artifact->filename;
  std::error_code error;
  auto size = fs::file_size(file, error);
  if (error) return make_error("NOT_FOUND", "artifact " + id + " has no bytes on disk any more");
  Reply reply;
  reply.kind = Reply::Kind::file;
  reply.file = file;
  reply.file_size = static_cast<std::int64_t>(size);
  reply.content_type = artifact->content_type.empty() ? model::content_type_for(artifact->filename)
                                                      : artifact->content_type;
  reply.headers.emplace_back("Accept-Ranges", "bytes");
  reply.headers.emplace_back("Cache-Control", "private, no-store");
  return reply;
}

}  // namespace jgrid::api
