#pragma once
// Server-Sent Events framing and the pacing of live followers (docs/api.md §2.6,
// §2.7). A follower re-reads the store after each commit; it never makes a
// writer wait (the store only bumps a counter).
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "api/call.hpp"

namespace jgrid::api {

// "id: <id>\nevent: <type>\ndata: <one-line JSON>\n\n".
std::string sse_event(std::int64_t id, std::string_view type, const Json& data);

// Parses a Last-Event-ID (or cursor) value: a non-negative decimal, else 0.
std::int64_t parse_event_id(const std::string& text);

// A resume point sent by a client: "" is `fallback`, a non-negative decimal
// is itself. Error INVALID_REQUEST naming `field` for anything else.
Result<std::int64_t> resume_point(const std::string& text, std::int64_t fallback, const std::string& field);

// Waits between reads of a live follower. Not thread-safe: one per stream.
class Pacer {
 public:
  enum class Wake { changed, heartbeat, stopping };
  // `write` is the stream's writer: an empty chunk asks whether the client
  // is still there (see write_stream).
  Pacer(const Context& ctx, const ChunkWriter& write);
  // The store's commit counter; take it before reading.
  std::uint64_t version() const;
  // Returns when the store committed after `seen`, a heartbeat is due, or
  // the server is stopping or the client has left (`stopping`; both checked
  // at least every 200 ms).
  Wake wait(std::uint64_t seen);

 private:
  const Context& m_ctx;
  const ChunkWriter& m_write;
  std::chrono::steady_clock::time_point m_next_heartbeat;
};

// Response headers every stream carries.
void add_stream_headers(Reply& reply);

}  // namespace jgrid::api
