// Submit body → decode → screen: what POST /v1/jobs and /v1/jobs/estimate do
// with a request before the engine sees it. Any input must end in a value or
// an Error, never a crash, and a decoded spec must survive its storage
// round trip.
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "jgrid/model/job_spec.hpp"
#include "jgrid/screen/screen.hpp"

using jgrid::model::SpecMode;

namespace {

// Image metadata as the fleet's image catalogue would give it, from the
// labels the request itself carries (so label rules see fuzzed values too).
jgrid::screen::ImageMetadata metadata_from(const nlohmann::json& body) {
  jgrid::screen::ImageMetadata image;
  if (!body.contains("labels") || !body["labels"].is_object()) return image;
  for (const auto& [key, value] : body["labels"].items())
    if (value.is_string()) image.labels[key] = value.get<std::string>();
  image.known = true;
  return image;
}

void screen_spec(const jgrid::model::JobSpec& spec, const nlohmann::json& body) {
  for (const auto& image : {jgrid::screen::ImageMetadata{}, metadata_from(body)}) {
    auto screening = jgrid::screen::screen(spec, image);
    (void)jgrid::screen::screening_to_json(screening).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    (void)screening.fixes();
    (void)jgrid::screen::detect_intent(spec, image);
  }
  (void)jgrid::model::effective_vendor(spec);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto body = nlohmann::json::parse(data, data + size, nullptr, false);
  if (body.is_discarded() || !body.is_object()) return 0;
  for (SpecMode mode : {SpecMode::submit, SpecMode::estimate}) {
    auto spec = jgrid::model::decode_job_spec(body, mode);
    if (!spec) {
      (void)spec.error().message;
      continue;
    }
    screen_spec(*spec, body);
    auto stored = jgrid::model::spec_from_doc(jgrid::model::spec_to_doc(*spec));
    if (!stored) __builtin_trap();  // what was accepted must read back from the store
  }
  return 0;
}
