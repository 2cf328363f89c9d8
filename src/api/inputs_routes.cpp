// docs/api.md §2.9: job inputs. The upload itself lives in upload.cpp.
#include "api/errors.hpp"
#include "api/handlers.hpp"
#include "api/params.hpp"
#include "api/signing.hpp"
#include "jgrid/model/job_input.hpp"
#include "jgrid/util/clock.hpp"
#include "jgrid/util/strings.hpp"
#include "jgrid/util/time.hpp"

namespace jgrid::api {
namespace {

Result<std::string> choice(const Call& call, const std::string& field, const std::string& fallback,
                           std::initializer_list<std::string_view> allowed) {
  auto value = body_string(call, field, fallback);
  if (!value) return value.error();
  std::string text = value->empty() ? fallback : util::to_lower(*value);
  for (auto option : allowed)
    if (option == text) return text;
  return invalid_request(field + ": unknown value '" + *value + "'", field);
}

Result<std::optional<std::int64_t>> declared_size(const Call& call) {
  if (!call.body.is_object() || !call.body.contains("size_bytes") || call.body["size_bytes"].is_null())
    return std::optional<std::int64_t>();
  const Json& size = call.body["size_bytes"];
  if (!size.is_number_integer() || size.get<std::int64_t>() < 0)
    return invalid_request("size_bytes: expected a non-negative integer", "size_bytes");
  return std::optional<std::int64_t>(size.get<std::int64_t>());
}

Json upload_object(const Context& ctx, const Call& call, const model::JobInput& input) {
  // The slot's own expiry (the engine enforces it); the URL's signature lasts as long by the wall clock.
  std::int64_t expires_s = (util::wall_now_ms() + ctx.engine.options().upload_ttl_ms) / 1000;
  std::string base = call.base_url + "/v1/job-inputs/" + util::percent_encode(input.id);
  return Json{{"input_id", input.id},
              {"filename", input.filename},
              {"kind", input.kind},
              {"method", "PUT"},
              {"upload_url", base + "/content?" + signed_query(ctx.options.signing_secret, upload_subject(input.id),
                                                                expires_s)},
              {"token", input.token},
              {"expires_at", util::format_time(input.expires_ms)},
              {"complete_url", base + "/complete"},
              {"headers", {{"Content-Type", input.content_type}}}};
}

Result<store::InputQuery> input_query(const Call& call) {
  auto limit = limit_param(call, 20, 100);
  if (!limit) return limit.error();
  store::InputQuery query;
  query.workspace = workspace_of(call);
  query.kind = util::to_lower(call.param("kind").value_or(""));
  query.status = util::to_lower(call.param("status").value_or(""));
  if (!query.kind.empty() && query.kind != "input" && query.kind != "script")
    return invalid_request("kind: expected input or script, got '" + query.kind + "'", "kind");
  if (!query.status.empty() && query.status != "pending" && query.status != "ready")
    return invalid_request("status: expected pending or ready, got '" + query.status + "'", "status");
  query.after_id = call.param("cursor").value_or("");
  query.limit = *limit + 1;
  return query;
}

}  // namespace

Result<Json> create_input(const Context& ctx, const Call& call) {
  auto filename = body_string(call, "filename");
  if (!filename) return filename.error();
  if (auto valid = model::validate_filename(*filename, "filename"); !valid) return valid.error();
  auto content_type = body_string(call, "content_type", "application/octet-stream");
  if (!content_type) return content_type.error();
  auto kind = choice(call, "kind", "input", {"input", "script"});
  if (!kind) return kind.error();
  std::string type = content_type->empty() ? "application/octet-stream" : *content_type;
  auto input = ctx.engine.create_input(workspace_of(call), *filename, type, *kind);
  if (!input) return input.error();
  return Json{{"upload", upload_object(ctx, call, *input)}};
}

Result<Json> complete_input(const Context& ctx, const Call& call) {
  auto token = body_string(call, "token");
  if (!token) return token.error();
  auto size = declared_size(call);
  if (!size) return size.error();
  engine::InputCompletion completion;
  completion.input_id = call.capture(0);
  completion.key_workspace = call.workspace;  // "" when no API key authorised the call
  // Without a key, the bearer may be the upload token (the way the PUT takes it).
  completion.token = !token->empty() || !call.workspace.empty() ? *token : bearer_token(call);
  completion.declared_size = *size;
  auto input = ctx.engine.complete_input(completion);
  if (!input) return input.error();
  return Json{{"input_id", input->id},
              {"status", input->status},
              {"ready", input->status == "ready"},
              {"size_bytes", input->size_bytes ? Json(*input->size_bytes) : Json(nullptr)},
              {"sha256", input->sha256},
              {"mount_path", model::mount_path(*input)}};
}

Result<Json> list_inputs(const Context& ctx, const Call& call) {
  auto query = input_query(call);
  if (!query) return query.error();
  auto inputs = ctx.store.list_inputs(*query);
  bool more = inputs.size() > static_cast<std::size_t>(query->limit - 1);
  if (more) inputs.pop_back();
  Json items = Json::array();
  for (const auto& input : inputs) items.push_back(model::job_input_to_api(input));
  return Json{{"inputs", std::move(items)},
              {"next_cursor", more ? Json(inputs.back().id) : Json(nullptr)},
              {"has_more", more}};
}

}  // namespace jgrid::api
