#pragma once
// Serializing JSON payloads the way every response does.
#include <string>

#include "api/call.hpp"

namespace jgrid::api {

inline constexpr std::string_view k_json_type = "application/json; charset=utf-8";

// One line; invalid UTF-8 in strings (e.g. from workload output) is replaced.
inline std::string dump_json(const Json& json) { return json.dump(-1, ' ', false, Json::error_handler_t::replace); }

// The body of a successful reply in `framing`: the payload itself, or
// {"ok": true, "data": payload}.
inline Json framed(Json payload, model::Framing framing) {
  if (framing == model::Framing::plain) return payload;
  return Json{{"ok", true}, {"data", std::move(payload)}};
}

// framed() for a payload that is already serialized.
inline std::string framed_text(std::string payload, model::Framing framing) {
  if (framing == model::Framing::plain) return payload;
  return "{\"data\":" + payload + ",\"ok\":true}";
}

// A reply whose JSON body is already serialized (and framed).
inline Reply serialized_json(std::string body, int status = 200) {
  Reply reply;
  reply.kind = Reply::Kind::bytes;
  reply.status = status;
  reply.bytes = std::move(body);
  reply.content_type = std::string(k_json_type);
  return reply;
}

}  // namespace jgrid::api
