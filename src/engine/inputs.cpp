#include <filesystem>
#include <system_error>

#include "impl.hpp"
#include "jgrid/model/layout.hpp"
#include "jgrid/util/crypto.hpp"
#include "jgrid/util/files.hpp"
#include "jgrid/util/ids.hpp"
#include "jgrid/util/saturating.hpp"
#include "jgrid/util/time.hpp"

namespace jgrid::engine {
namespace {

namespace fs = std::filesystem;

Error not_found(const std::string& input_id) { return make_error("NOT_FOUND", "job input " + input_id + " not found"); }

bool expired(const model::JobInput& input, std::int64_t now_ms) {
  return input.status != "ready" && input.expires_ms > 0 && input.expires_ms <= now_ms;
}

Error expired_error(const model::JobInput& input) {
  return make_error("FORBIDDEN", "the upload slot of job input " + input.id + " expired at " +
                                     util::format_time(input.expires_ms) +
                                     ": create a new one with POST /v1/job-inputs");
}

// Who may complete: a key of the input's workspace, or the input's token.
// A token that is given must match, with or without a key.
Status check_completer(const model::JobInput& input, const InputCompletion& completion) {
  if (!completion.token.empty()) {
    if (util::constant_time_equal(completion.token, input.token)) return Ok{};
    return make_error("FORBIDDEN", "upload token does not match job input " + input.id);
  }
  if (!completion.key_workspace.empty()) return Ok{};
  return make_error("FORBIDDEN", "completing job input " + input.id +
                                     " needs an API key of its workspace or its upload token (\"token\" in the body)");
}

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
  input.expires_ms = util::saturating_add(input.created_ms, m_options.upload_ttl_ms);
  store::WriteBatch batch;
  batch.inputs.push_back(input);
  if (Status committed = m_store.commit(std::move(batch)); !committed) return committed.error();
  return input;
}

Status Engine::Impl::check_upload_slot(const model::JobInput& input) const {
  if (input.status == "ready") return make_error("CONFLICT", "job input " + input.id + " is already complete");
  if (expired(input, now())) return expired_error(input);
  return Ok{};
}

// The rename, the directory sync and the row commit happen under
// m_inputs_mutex, so complete_input sees either the old bytes and row or
// the new ones; once it marked the input ready no upload replaces them.
Result<model::JobInput> Engine::Impl::record_upload(const std::string& input_id, const fs::path& received,
                                                    std::int64_t size_bytes, const std::string& sha256) {
  std::error_code ignored;
  std::lock_guard lock(m_inputs_mutex);
  auto input = m_store.get_input(input_id);
  Status placed = !input ? Status(not_found(input_id)) : check_upload_slot(*input);
  if (placed) placed = util::rename_durably(received, model::input_blob_path(m_options.data_dir, input_id));
  if (!placed) {
    fs::remove(received, ignored);
    return placed.error();
  }
  input->size_bytes = size_bytes;
  input->sha256 = sha256;
  store::WriteBatch batch;
  batch.inputs.push_back(*input);
  if (Status committed = m_store.commit(std::move(batch)); !committed) return committed.error();
  return std::move(*input);
}

Result<model::JobInput> Engine::Impl::complete_input(const InputCompletion& completion) {
  std::lock_guard lock(m_inputs_mutex);
  const std::string& input_id = completion.input_id;
  auto input = m_store.get_input(input_id);
  if (!input) return not_found(input_id);
  if (!completion.key_workspace.empty() && input->workspace != completion.key_workspace) return not_found(input_id);
  if (Status allowed = check_completer(*input, completion); !allowed) return allowed.error();
  if (expired(*input, now())) return expired_error(*input);
  if (!input->size_bytes)
    return make_error("JOB_INPUT_NOT_READY", "job input " + input_id + " has no uploaded bytes yet");
  if (completion.declared_size && *completion.declared_size != *input->size_bytes)
    return make_error("INVALID_REQUEST",
                      "size_bytes: declared " + std::to_string(*completion.declared_size) + " but " +
                          std::to_string(*input->size_bytes) + " bytes arrived for " + input_id,
                      {{"field", "size_bytes"}});
  if (input->status == "ready") return std::move(*input);
  input->status = "ready";
  store::WriteBatch batch;
  batch.inputs.push_back(*input);
  if (Status committed = m_store.commit(std::move(batch)); !committed) return committed.error();
  return std::move(*input);
}

void Engine::Impl::sweep_expired_inputs() {
  std::lock_guard lock(m_inputs_mutex);
  auto ids = m_store.delete_expired_inputs(now());
  if (!ids) return;  // the store said why in its log; the next sweep tries again
  std::error_code ignored;
  for (const auto& id : *ids) fs::remove(model::input_blob_path(m_options.data_dir, id), ignored);
}

}  // namespace jgrid::engine
