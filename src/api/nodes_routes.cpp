// docs/api.md §2.10 `GET /v1/nodes`. A fleet can hold 10,000 nodes (docs/simulation.md §5),
// so the list is never built in one piece: with `limit` it is a page
// (`cursor` = position in fleet order), without it the whole list is
// streamed in chunks, each taken from the engine and serialised on its own.
#include "api/errors.hpp"
#include "api/handlers.hpp"
#include "api/params.hpp"

namespace jgrid::api {
namespace {

constexpr int k_max_nodes_page = 1000;
constexpr std::size_t k_stream_chunk = 250;

void append_nodes(std::string& out, const std::vector<model::Node>& nodes, bool first) {
  for (const auto& node : nodes) {
    if (!first) out += ',';
    first = false;
    out += model::node_to_api(node).dump();
  }
}

// {"nodes":[…]} written chunk by chunk; a client that leaves ends it.
Reply stream_all(const engine::Engine& engine) {
  Reply reply;
  reply.kind = Reply::Kind::stream;
  reply.content_type = "application/json";
  reply.stream = [&engine](const ChunkWriter& write) {
    std::string chunk = "{\"nodes\":[";
    for (std::size_t offset = 0;; offset += k_stream_chunk) {
      auto nodes = engine.nodes(offset, k_stream_chunk);
      append_nodes(chunk, nodes, offset == 0);
      if (nodes.size() < k_stream_chunk) break;
      if (!write(chunk)) return;
      chunk.clear();
    }
    write(chunk + "]}");
  };
  return reply;
}

Result<Reply> page(const Context& ctx, const Call& call) {
  auto limit = limit_param(call, k_max_nodes_page, k_max_nodes_page);
  if (!limit) return limit.error();
  auto cursor = sequence_cursor(call, "cursor");
  if (!cursor) return cursor.error();
  auto offset = static_cast<std::size_t>(*cursor);
  auto nodes = ctx.engine.nodes(offset, static_cast<std::size_t>(*limit));
  std::size_t next = offset + nodes.size();
  bool more = next < ctx.engine.node_count();
  Json items = Json::array();
  for (const auto& node : nodes) items.push_back(model::node_to_api(node));
  return Reply::of(Json{{"nodes", std::move(items)},
                        {"limit", *limit},
                        {"next_cursor", more ? Json(std::to_string(next)) : Json(nullptr)},
                        {"has_more", more},
                        {"total", ctx.engine.node_count()}});
}

}  // namespace

Result<Reply> list_nodes(const Context& ctx, const Call& call) {
  if (call.param("limit") || call.param("cursor")) return page(ctx, call);
  return stream_all(ctx.engine);
}

}  // namespace jgrid::api
