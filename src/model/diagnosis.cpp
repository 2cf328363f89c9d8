#include "jgrid/model/diagnosis.hpp"

#include <nlohmann/json.hpp>

namespace jgrid::model {

void write_diagnosis(util::JsonWriter& w, const Diagnosis& diagnosis) {
  w.begin_object().key("code").value(diagnosis.code).key("message").value(diagnosis.message);
  w.key("fix").value(diagnosis.fix).key("evidence");
  if (const auto& e = diagnosis.evidence) {
    w.begin_object().key("stream").value(e->stream).key("line").value(e->line).key("text").value(e->text).end_object();
  } else {
    w.null();
  }
  w.end_object();
}

nlohmann::json diagnosis_to_json(const Diagnosis& diagnosis) {
  nlohmann::json evidence = nullptr;
  if (const auto& e = diagnosis.evidence) evidence = {{"stream", e->stream}, {"line", e->line}, {"text", e->text}};
  return {{"code", diagnosis.code}, {"message", diagnosis.message}, {"fix", diagnosis.fix}, {"evidence", evidence}};
}

std::optional<Diagnosis> diagnosis_from_json(const nlohmann::json& doc) {
  if (!doc.is_object() || !doc.contains("code") || !doc["code"].is_string()) return std::nullopt;
  Diagnosis diagnosis{doc["code"], doc.value("message", ""), doc.value("fix", ""), std::nullopt};
  if (const auto it = doc.find("evidence"); it != doc.end() && it->is_object())
    diagnosis.evidence = DiagnosisEvidence{it->value("stream", ""), it->value("line", std::int64_t{0}),
                                           it->value("text", "")};
  return diagnosis;
}

}  // namespace jgrid::model
