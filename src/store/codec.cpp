#include "store/codec.hpp"

#include "jgrid/util/json_writer.hpp"
#include "jgrid/util/log.hpp"
#include "jgrid/util/utf8.hpp"

namespace jgrid::store {
namespace {

using nlohmann::json;

void warn_undecodable(std::string_view what, std::string_view reason) {
  util::log(util::LogLevel::error, "store", "skipping a stored " + std::string(what) + " that cannot be decoded",
            {{"reason", std::string(reason)}});
}

// Parses `text` and maps it with `from`, turning any failure into nullopt.
template <typename T, typename From>
std::optional<T> decode(std::string_view what, std::string_view text, From from) {
  try {
    return from(json::parse(text));
  } catch (const std::exception& e) {
    warn_undecodable(what, e.what());
    return std::nullopt;
  }
}

bool is_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    // ASCII runs are the common case: skip them a byte at a time without decoding.
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    const std::size_t n = util::utf8_sequence_length(text, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

model::Event event_from(const json& doc) {
  model::Event event;
  event.seq = doc.at("seq").get<std::int64_t>();
  event.id = doc.at("id").get<std::string>();
  event.job_id = doc.at("job_id").get<std::string>();
  event.sequence = doc.at("sequence").get<std::int64_t>();
  event.type = doc.at("type").get<std::string>();
  event.phase = doc.value("phase", "");
  event.title = doc.value("title", "");
  event.message = doc.value("message", "");
  event.source = doc.value("source", "api");
  event.level = doc.value("level", "info");
  event.created_ms = doc.value("created_ms", std::int64_t{0});
  event.data = doc.value("data", json::object());
  return event;
}

model::Artifact artifact_from(const json& doc) {
  model::Artifact artifact;
  artifact.id = doc.at("id").get<std::string>();
  artifact.job_id = doc.at("job_id").get<std::string>();
  artifact.filename = doc.at("filename").get<std::string>();
  artifact.content_type = doc.value("content_type", "");
  artifact.size_bytes = doc.value("size_bytes", std::int64_t{0});
  artifact.sha256 = doc.value("sha256", "");
  artifact.created_ms = doc.value("created_ms", std::int64_t{0});
  return artifact;
}

model::JobInput input_from(const json& doc) {
  model::JobInput input;
  input.id = doc.at("id").get<std::string>();
  input.workspace = doc.value("workspace", "local");
  input.filename = doc.at("filename").get<std::string>();
  input.content_type = doc.value("content_type", input.content_type);
  input.kind = doc.value("kind", input.kind);
  input.status = doc.value("status", input.status);
  if (auto size = doc.find("size_bytes"); size != doc.end() && !size->is_null())
    input.size_bytes = size->get<std::int64_t>();
  input.sha256 = doc.value("sha256", "");
  input.token = doc.value("token", "");
  input.expires_ms = doc.value("expires_ms", std::int64_t{0});
  input.created_ms = doc.value("created_ms", std::int64_t{0});
  return input;
}

}  // namespace

std::string dump_doc(const json& doc) { return doc.dump(-1, ' ', false, json::error_handler_t::replace); }

// The same document as dump_doc(job_to_doc(job)) minus the tails (stored in
// their own columns), written without building a tree; the spec, which never
// changes after submit, is encoded once per job and spliced in with the
// screening text: a job is written at every step of its life and they are
// most of its bytes.
namespace {

const std::string& encoded_spec(const model::Job& job) {
  return job.spec.memo([](const model::JobSpec& spec) { return model::spec_json(spec); });
}

}  // namespace

std::string encode_job(const model::Job& job) {
  std::string out = model::job_state_json(job, false);
  out.pop_back();  // the closing brace; the state always has members, so a comma follows
  out += ",\"screening\":";
  out += *job.screening;
  out += ",\"spec\":";
  out += encoded_spec(job);
  out += '}';
  return out;
}

void warm_job_encoding(const model::Job& job) {
  encoded_spec(job);
}

std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    std::size_t n = util::utf8_sequence_length(text, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      n = 1;
    } else {
      out.append(text, i, n);
    }
    i += n;
  }
  return out;
}

void repair_text(WriteBatch& batch) {
  auto repair = [](std::string& text) {
    if (!is_utf8(text)) text = valid_utf8(text);
  };
  for (auto& job : batch.jobs) {
    repair(job.stdout_tail);
    repair(job.stderr_tail);
  }
  for (auto& entry : batch.logs) repair(entry.message);
}

std::string encode_event(const model::Event& e) {
  std::string out;
  out.reserve(256);
  util::JsonWriter w(out);
  w.begin_object().key("seq").value(e.seq).key("id").value(e.id).key("job_id").value(e.job_id);
  w.key("sequence").value(e.sequence).key("type").value(e.type).key("phase").value(e.phase);
  w.key("title").value(e.title.empty() ? model::event_title(e.type) : e.title);
  w.key("message").value(e.message).key("source").value(e.source);
  w.key("level").value(e.level).key("created_ms").value(e.created_ms);
  w.key("data").raw(dump_doc(e.data)).end_object();
  return out;
}

std::string encode_artifact(const model::Artifact& a) {
  return dump_doc({{"id", a.id}, {"job_id", a.job_id}, {"filename", a.filename},
                   {"content_type", a.content_type}, {"size_bytes", a.size_bytes}, {"sha256", a.sha256},
                   {"created_ms", a.created_ms}});
}

std::string encode_input(const model::JobInput& i) {
  return dump_doc({{"id", i.id}, {"workspace", i.workspace}, {"filename", i.filename},
                   {"content_type", i.content_type}, {"kind", i.kind}, {"status", i.status},
                   {"size_bytes", i.size_bytes ? json(*i.size_bytes) : json(nullptr)}, {"sha256", i.sha256},
                   {"token", i.token}, {"expires_ms", i.expires_ms}, {"created_ms", i.created_ms}});
}

std::optional<model::Job> decode_job(std::string_view text, std::string_view stdout_tail,
                                     std::string_view stderr_tail) {
  return decode<model::Job>("job", text, [&](json doc) -> std::optional<model::Job> {
    doc["stdout_tail"] = std::string(stdout_tail);
    doc["stderr_tail"] = std::string(stderr_tail);
    auto job = model::job_from_doc(doc);
    if (job) return std::move(job).value();
    warn_undecodable("job", job.error().message);
    return std::nullopt;
  });
}

std::optional<model::Event> decode_event(std::string_view text) {
  return decode<model::Event>("event", text, event_from);
}

std::optional<model::Artifact> decode_artifact(std::string_view text) {
  return decode<model::Artifact>("artifact", text, artifact_from);
}

std::optional<model::JobInput> decode_input(std::string_view text) {
  return decode<model::JobInput>("input", text, input_from);
}

}  // namespace jgrid::store
