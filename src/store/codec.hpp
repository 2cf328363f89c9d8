#pragma once
// Storage documents: how rows hold the model types. Jobs use the model's own
// lossless document; events, artifacts and inputs are encoded here, as the
// model has no storage form for them. Documents are JSON text so the file
// stays readable with the sqlite3 shell.
#include <optional>
#include <string>
#include <string_view>

#include "jgrid/model/artifact.hpp"
#include "jgrid/model/event.hpp"
#include "jgrid/model/job.hpp"
#include "jgrid/model/job_input.hpp"
#include "jgrid/store/store.hpp"

namespace jgrid::store {

// JSON text of `doc`; bytes that are not UTF-8 (workload output in tails)
// become U+FFFD instead of failing the write.
std::string dump_doc(const nlohmann::json& doc);

// A job's document without its output tails, which are stored as columns:
// parsing 16 KiB of tails as JSON would cost more than everything else.
std::string encode_job(const model::Job& job);
// `text` with every byte that does not start a valid UTF-8 sequence replaced
// by U+FFFD; `text` itself when it is valid.
std::string valid_utf8(std::string_view text);
// Makes the free text of `batch` that comes from workloads (output tails, log
// lines) valid UTF-8, so readers can always serialise what they read and the
// cache holds exactly what the file holds.
void repair_text(WriteBatch& batch);
std::string encode_event(const model::Event& event);
std::string encode_artifact(const model::Artifact& artifact);
std::string encode_input(const model::JobInput& input);

// nullopt (and one error line in the server log) when `text` is not a
// document this version wrote: a damaged row is skipped, not fatal.
std::optional<model::Job> decode_job(std::string_view text, std::string_view stdout_tail = {},
                                     std::string_view stderr_tail = {});
std::optional<model::Event> decode_event(std::string_view text);
std::optional<model::Artifact> decode_artifact(std::string_view text);
std::optional<model::JobInput> decode_input(std::string_view text);

}  // namespace jgrid::store
