#include "api/sse.hpp"

#include <algorithm>

#include "jgrid/util/strings.hpp"

namespace jgrid::api {
namespace {

constexpr std::chrono::milliseconds k_stop_check{200};

}  // namespace

std::string sse_event(std::int64_t id, std::string_view type, const Json& data) {
  std::string out = "id: " + std::to_string(id) + "\nevent: ";
  out.append(type);
  out += "\ndata: ";
  // dump() escapes control characters, so the JSON stays on one line.
  out += data.dump(-1, ' ', false, Json::error_handler_t::replace);
  out += "\n\n";
  return out;
}

std::int64_t parse_event_id(const std::string& text) {
  auto value = util::parse_int(util::trim(text));
  return value && *value > 0 ? *value : 0;
}

Result<std::int64_t> resume_point(const std::string& text, std::int64_t fallback, const std::string& field) {
  if (text.empty()) return fallback;
  auto value = util::parse_int(util::trim(text));
  if (!value || *value < 0)
    return make_error("INVALID_REQUEST", field + ": expected an event sequence number, got '" + text + "'",
                      Json{{"field", field}});
  return *value;
}

Pacer::Pacer(const Context& ctx, const ChunkWriter& write)
    : m_ctx(ctx),
      m_write(write),
      m_next_heartbeat(std::chrono::steady_clock::now() + std::chrono::milliseconds(ctx.options.heartbeat_ms)) {}

std::uint64_t Pacer::version() const { return m_ctx.store.committed().version(); }

Pacer::Wake Pacer::wait(std::uint64_t seen) {
  using Clock = std::chrono::steady_clock;
  while (!m_ctx.stopping.load() && m_write(std::string_view())) {
    auto now = Clock::now();
    if (now >= m_next_heartbeat) {
      m_next_heartbeat = now + std::chrono::milliseconds(m_ctx.options.heartbeat_ms);
      return Wake::heartbeat;
    }
    auto slice = std::min<Clock::duration>(k_stop_check, m_next_heartbeat - now);
    if (m_ctx.store.committed().wait_change(seen, std::chrono::duration_cast<std::chrono::milliseconds>(slice) +
                                                      std::chrono::milliseconds(1)))
      return Wake::changed;
  }
  return Wake::stopping;
}

void add_stream_headers(Reply& reply) {
  reply.kind = Reply::Kind::stream;
  reply.content_type = "text/event-stream";
  reply.headers.emplace_back("Cache-Control", "no-cache");
  reply.headers.emplace_back("X-Accel-Buffering", "no");
}

}  // namespace jgrid::api
