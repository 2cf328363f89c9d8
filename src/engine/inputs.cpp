#include "impl.hpp"
#include "jgrid/util/crypto.hpp"
#include "jgrid/util/ids.hpp"

namespace jgrid::engine {
namespace {

Error not_found(const std::string& input_id) { return make_error("NOT_FOUND", "job input " + input_id + " not found"); }

}  // namespace

Result<model::JobInput> Engine::Impl::create_input(const std::string& workspace, const std::string& filename,
                                                   const std::string& content_type, const std::string& kind) {
  if (Status valid = model::validate_filename(filename, "filename"); !valid) return valid.error();
  std::string input_kind = kind.empty() ? "input" : kind;
  if (input_kind != "input" && input_kind != "script")
    return make_error("INVALID_REQUEST", "kind: expected \"input\" or \"script\", got \"" + kind + "\"",
                      {{"field", "kind"}});
  model::JobInput input;
  input.created_ms = now();
  input.id = util::new_id("inp", input.created_ms);
  input.workspace = workspace;
  input.filename = filename;
  if (!content_type.empty()) input.content_type = content_type;
  input.kind = input_kind;
  input.token = util::random_hex(16);
  input.expires_ms = input.created_ms + m_options.upload_ttl_ms;
  store::WriteBatch batch;
  batch.inputs.push_back(input);
  if (Status committed = m_store.commit(std::move(batch)); !committed) return committed.error();
  return input;
}

Result<model::JobInput> Engine::Impl::record_upload(const std::string& input_id, std::int64_t size_bytes,
                                                    const std::string& sha256) {
  auto input = m_store.get_input(input_id);
  if (!input) return not_found(input_id);
  input->size_bytes = size_bytes;
  input->sha256 = sha256;
  store::WriteBatch batch;
  batch.inputs.push_back(*input);
  if (Status committed = m_store.commit(std::move(batch)); !committed) return committed.error();
  return std::move(*input);
}

Result<model::JobInput> Engine::Impl::complete_input(const std::string& workspace, const std::string& input_id,
                                                     const std::string& token,
                                                     std::optional<std::int64_t> declared_size) {
  auto input = m_store.get_input(input_id);
  if (!input || input->workspace != workspace) return not_found(input_id);
  if (!util::constant_time_equal(token, input->token))
    return make_error("FORBIDDEN", "upload token does not match job input " + input_id);
  if (!input->size_bytes)
    return make_error("JOB_INPUT_NOT_READY", "job input " + input_id + " has no uploaded bytes yet");
  if (declared_size && *declared_size != *input->size_bytes)
    return make_error("INVALID_REQUEST",
                      "size_bytes: declared " + std::to_string(*declared_size) + " but " +
                          std::to_string(*input->size_bytes) + " bytes arrived for " + input_id,
                      {{"field", "size_bytes"}});
  if (input->status == "ready") return std::move(*input);
  input->status = "ready";
  store::WriteBatch batch;
  batch.inputs.push_back(*input);
  if (Status committed = m_store.commit(std::move(batch)); !committed) return committed.error();
  return std::move(*input);
}

}  // namespace jgrid::engine
