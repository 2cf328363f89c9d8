#pragma once
// What a route handler sees and returns. Handlers never see the HTTP
// library: the adapter (http_adapter.cpp) turns a request into a Call and a
// Reply into a response.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "jgrid/api/server.hpp"
#include "jgrid/engine/engine.hpp"
#include "jgrid/model/job.hpp"
#include "jgrid/store/store.hpp"
#include "jgrid/util/result.hpp"

namespace jgrid::api {

using Json = nlohmann::json;

// Receives one chunk of a request body; false stops reading.
using ChunkReceiver = std::function<bool(const char* data, std::size_t size)>;
// Streams the request body into the receiver, once. False when the
// connection failed or the receiver stopped.
using BodyReader = std::function<bool(const ChunkReceiver&)>;
// Sends one chunk of a streamed response; false when the client is gone.
// An empty chunk sends nothing and only tells whether the client is there.
using ChunkWriter = std::function<bool(std::string_view)>;
// Produces a whole streamed response (SSE) and returns when it is over.
using StreamBody = std::function<void(const ChunkWriter&)>;

struct Call {
  std::string method;                       // GET, HEAD, POST, PUT, ...
  std::vector<std::string> captures;        // path parameters, percent-decoded
  std::map<std::string, std::string> query; // first value of each parameter
  Json body;                                // the JSON object sent, or null
  std::string idempotency_key, last_event_id, accept, range, host, authorization;
  std::string base_url;                     // absolute, no trailing '/', + base path when used
  std::string workspace = "local";          // the caller's, set by authorize() before the handler
  model::Framing framing = model::Framing::plain;
  std::int64_t content_length = -1;         // -1: not declared
  BodyReader read_body;                     // streaming routes only

  const std::string& capture(std::size_t index) const { return captures.at(index); }
  std::optional<std::string> param(const std::string& key) const {
    auto it = query.find(key);
    return it == query.end() ? std::nullopt : std::optional<std::string>(it->second);
  }
  bool is_head() const { return method == "HEAD"; }
};

// A handler's answer. JSON replies are framed by the route's family.
struct Reply {
  enum class Kind { json, bytes, file, stream };
  Kind kind = Kind::json;
  int status = 200;
  Json json;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string content_type;           // bytes, file, stream
  std::string bytes;                  // bytes
  std::filesystem::path file;         // file (Range is honoured)
  std::int64_t file_size = 0;
  StreamBody stream;                  // stream

  static Reply of(Json json, int status = 200) {
    Reply reply;
    reply.json = std::move(json);
    reply.status = status;
    return reply;
  }
};

// Everything handlers share. The engine and store outlive the server.
class BodyCache;
class SubscriberSlots;
class StreamSlots;

struct Context {
  engine::Engine& engine;
  const store::Store& store;
  const ServerOptions& options;
  const std::atomic<bool>& stopping;  // true once stop() was called
  std::int64_t started_wall_ms = 0;
  BodyCache* bodies = nullptr;        // job bodies by store version
  SubscriberSlots* subscribers = nullptr;  // live streams per job
  StreamSlots* streams = nullptr;          // live streams in all and per caller

  std::int64_t now_ms() const { return engine.clock().now_ms(); }
};

using JsonHandler = Result<Json> (*)(const Context&, const Call&);
using ReplyHandler = Result<Reply> (*)(const Context&, const Call&);

}  // namespace jgrid::api
