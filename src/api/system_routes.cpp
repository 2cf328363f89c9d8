// docs/api.md §2.10 one node (the list is in nodes_routes.cpp), §2.11 health and readiness, and the dashboard files.
#include <filesystem>

#include "api/errors.hpp"
#include "api/handlers.hpp"
#include "jgrid/api/web_assets.hpp"
#include "jgrid/model/artifact.hpp"
#include "jgrid/util/clock.hpp"
#include "jgrid/util/files.hpp"
#include "jgrid/util/strings.hpp"
#include "jgrid/util/time.hpp"

namespace jgrid::api {
namespace {

constexpr std::string_view k_service = "jgrid-local";

std::string web_content_type(const std::string& path) {
  auto dot = path.find_last_of('.');
  std::string ext = dot == std::string::npos ? "" : util::to_lower(path.substr(dot + 1));
  if (ext == "html") return "text/html; charset=utf-8";
  if (ext == "js") return "text/javascript; charset=utf-8";
  if (ext == "css") return "text/css; charset=utf-8";
  if (ext == "svg") return "image/svg+xml";
  return model::content_type_for(path);
}

// "/" and "/ui" serve the index; "/ui/<file>" serves <file>.
std::string asset_path(const Call& call) {
  std::string rest = call.captures.empty() ? "" : call.capture(0);
  return rest.empty() ? "/index.html" : "/" + rest;
}

// A path whose last segment has no extension is a view of the single-page
// app (/ui/jobs/job_…): it gets the index, which routes in the browser.
// Paths that try to climb out ("..") never do.
bool is_view_path(const std::string& path) {
  for (const auto& part : util::split(path, '/'))
    if (part == "..") return false;
  return path.substr(path.find_last_of('/') + 1).find('.') == std::string::npos;
}

std::optional<std::string> embedded_asset(const std::string& path) {
  for (const WebAsset* asset = web_assets(); asset && asset->path; ++asset)
    if (path == asset->path) return std::string(reinterpret_cast<const char*>(asset->bytes), asset->size);
  return std::nullopt;
}

std::optional<std::string> disk_asset(const std::filesystem::path& root, const std::string& path) {
  for (const auto& part : util::split(path, '/'))
    if (part == "..") return std::nullopt;
  auto bytes = util::read_file(root / path.substr(1));
  return bytes ? std::optional<std::string>(std::move(*bytes)) : std::nullopt;
}

std::optional<std::string> web_asset(const Context& ctx, const std::string& path) {
  return ctx.options.web_dir.empty() ? embedded_asset(path) : disk_asset(ctx.options.web_dir, path);
}

// The parts readiness is made of, each asked at the time of the request
// (the fleet is loaded before the server starts, so it is always there).
struct Readiness {
  Status store;
  bool engine = false;
  bool ready() const { return store.ok() && engine; }
};

Readiness readiness(const Context& ctx) { return Readiness{ctx.store.ping(), ctx.engine.ready()}; }

std::string failing_parts(const Readiness& r) {
  std::string text;
  if (!r.store) text = "store: " + r.store.error().message;
  if (!r.engine) text += (text.empty() ? "" : "; ") + std::string("engine not started");
  return text;
}

Json store_health(const Context& ctx, const Readiness& r) {
  if (!r.store) return Json{{"ok", false}, {"error", r.store.error().message}};
  return Json{{"ok", true}, {"jobs", ctx.store.count_jobs()}};
}

}  // namespace

Result<Json> get_node(const Context& ctx, const Call& call) {
  auto node = ctx.engine.node(call.capture(0));
  if (!node) return not_found("node", call.capture(0));
  return model::node_to_api(*node);
}

Result<Json> healthz(const Context&, const Call&) {
  return Json{{"ok", true}, {"service", k_service}, {"version", JGRID_VERSION}};
}

Result<Reply> readyz(const Context& ctx, const Call&) {
  Readiness r = readiness(ctx);
  if (r.ready()) return Reply::of(Json{{"ok", true}});
  return make_error("NOT_READY", "not ready: " + failing_parts(r),
                    Json{{"checks", {{"store", r.store.ok()}, {"fleet", true}, {"engine", r.engine}}}});
}

Result<Json> health(const Context& ctx, const Call&) {
  Readiness r = readiness(ctx);
  std::int64_t wall = util::wall_now_ms();
  auto nodes = ctx.engine.nodes();
  int gpus = 0, free = 0;
  for (const auto& node : nodes) {
    gpus += node.gpu_count;
    free += node.gpus_free;
  }
  return Json{{"ok", true},
              {"service", k_service},
              {"version", JGRID_VERSION},
              {"ready", r.ready()},
              {"draining", ctx.stopping.load()},
              {"time", util::format_time(wall)},
              {"clock_time", util::format_time(ctx.now_ms())},
              {"clock_scale", ctx.engine.clock().scale()},
              {"uptime_seconds", (wall - ctx.started_wall_ms) / 1000},
              {"store", store_health(ctx, r)},
              {"fleet", {{"nodes", nodes.size()}, {"gpus", gpus}, {"gpus_free", free}}}};
}

Result<Reply> dashboard(const Context& ctx, const Call& call) {
  std::string path = asset_path(call);
  auto bytes = web_asset(ctx, path);
  if (!bytes && is_view_path(path)) bytes = web_asset(ctx, path = "/index.html");
  if (!bytes) return not_found("dashboard file", path);
  Reply reply;
  reply.kind = Reply::Kind::bytes;
  reply.bytes = std::move(*bytes);
  reply.content_type = web_content_type(path);
  reply.headers.emplace_back("Cache-Control", "no-cache");
  return reply;
}

}  // namespace jgrid::api
