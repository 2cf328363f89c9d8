#include "api/http_adapter.hpp"

#include <chrono>

#include "api/authorize.hpp"
#include "api/errors.hpp"
#include "api/http_io.hpp"
#include "api/metrics.hpp"
#include "api/request_checks.hpp"
#include "api/route_table.hpp"
#include "api/subscriber_slots.hpp"
#include "jgrid/util/strings.hpp"

namespace jgrid::api {
namespace {

// The path as sent (before any decoding), without its query.
std::string_view raw_path(const httplib::Request& req) {
  std::string_view target = req.target.empty() ? std::string_view(req.path) : std::string_view(req.target);
  return target.substr(0, target.find('?'));
}

// Strips the configured base path when the request came under it.
std::string_view route_path(std::string_view path, const std::string& base, bool& via_base) {
  via_base = !base.empty() && path.substr(0, base.size()) == base &&
             (path.size() == base.size() || path[base.size()] == '/');
  return via_base ? path.substr(base.size()) : path;
}

std::int64_t content_length(const httplib::Request& req) {
  if (!req.has_header("Content-Length")) return -1;
  auto value = util::parse_int(req.get_header_value("Content-Length"));
  return value ? static_cast<std::int64_t>(*value) : -1;
}

// A body follows the headers only when its length is given or it is chunked.
bool announces_body(const httplib::Request& req) {
  return content_length(req) > 0 ||
         util::to_lower(req.get_header_value("Transfer-Encoding")).find("chunked") != std::string::npos;
}

bool is_dry_run(const httplib::Request& req) {
  std::string value = util::to_lower(req.get_param_value("dry_run"));
  return value == "1" || value == "true";
}

Call make_call(const httplib::Request& req, const Route& route, std::vector<std::string> captures) {
  Call call;
  call.method = req.method;
  call.captures = std::move(captures);
  for (const auto& [key, value] : req.params) call.query.emplace(key, value);
  call.idempotency_key = req.get_header_value("Idempotency-Key");
  call.last_event_id = req.get_header_value("Last-Event-ID");
  call.accept = req.get_header_value("Accept");
  call.range = req.get_header_value("Range");
  call.host = req.get_header_value("Host");
  call.authorization = req.get_header_value("Authorization");
  call.framing = route.framing;
  call.content_length = content_length(req);
  return call;
}

Result<Reply> invoke(const Route& route, const Context& ctx, const Call& call) {
  if (auto json = std::get_if<JsonHandler>(&route.handler)) {
    auto payload = (*json)(ctx, call);
    if (!payload) return payload.error();
    return Reply::of(std::move(*payload));
  }
  return std::get<ReplyHandler>(route.handler)(ctx, call);
}

// Runs the handler; handler exceptions are bugs, answered as 500.
Result<Reply> invoke_safely(const Route& route, const Context& ctx, const Call& call) {
  try {
    return invoke(route, ctx, call);
  } catch (const std::exception& error) {
    return make_error("INTERNAL", std::string("unhandled exception in ") + route.method + " " + route.pattern +
                                      ": " + error.what());
  }
}

BodyReader body_reader(const httplib::Request& req, const httplib::ContentReader* reader, bool& consumed) {
  if (!reader)
    return [&req](const ChunkReceiver& receive) { return req.body.empty() || receive(req.body.data(), req.body.size()); };
  return [reader, &consumed](const ChunkReceiver& receive) {
    consumed = true;
    return (*reader)(receive);
  };
}

bool listens_on_loopback(const ServerOptions& options) {
  return options.host == "::1" || is_loopback_host(options.host);
}

// Cross-site requests (request_checks.hpp), before the caller is known.
Result<Ok> check_site(const Context& ctx, const httplib::Request& req, const Route& route) {
  const ServerOptions& options = ctx.options;
  auto origin = check_origin(req.method, req.get_header_value("Origin"), req.get_header_value("Host"),
                             !options.tls_cert_file.empty(), listens_on_loopback(options), options.allowed_origins);
  if (!origin) return origin;
  bool json_body = route.body == BodyKind::json || route.body == BodyKind::optional_json;
  if (json_body && announces_body(req)) return check_json_content_type(req.get_header_value("Content-Type"));
  return Ok{};
}

// Streams are counted per bearer key; a caller without one (auth off:
// every local client) meets only the cap of all streams.
std::string stream_caller(const httplib::Request& req) { return req.get_header_value("Authorization"); }

// A stream reply takes one of the server's stream slots for its whole life.
Result<Reply> hold_stream_slot(const Context& ctx, const httplib::Request& req, Reply reply) {
  if (reply.kind != Reply::Kind::stream || !ctx.streams) return reply;
  auto slot = ctx.streams->acquire(stream_caller(req));
  if (!slot) return slot.error();
  reply.stream = [slot = std::move(*slot), body = std::move(reply.stream)](const ChunkWriter& write) { body(write); };
  return reply;
}

Result<Reply> run_route(const Context& ctx, const httplib::Request& req, RouteMatch& match, std::string base_url,
                        const httplib::ContentReader* reader, bool& consumed) {
  const Route& route = *match.route;
  if (auto site = check_site(ctx, req, route); !site) return site.error();
  Call call = make_call(req, route, std::move(match.captures));
  call.base_url = std::move(base_url);
  auto workspace = authorize(ctx.options.auth, route.access, call);
  if (!workspace) return workspace.error();
  call.workspace = std::move(*workspace);
  if (route.body == BodyKind::json || route.body == BodyKind::optional_json) {
    auto body = read_json_body(route.body, req, reader, {ctx.options.max_body_bytes, ctx.options.max_json_depth},
                               consumed);
    if (!body) return body.error();
    call.body = std::move(*body);
  } else if (route.body == BodyKind::stream) {
    call.read_body = body_reader(req, reader, consumed);
  }
  auto reply = invoke_safely(route, ctx, call);
  if (reply) reply = hold_stream_slot(ctx, req, std::move(*reply));
  // On a virtual clock a change is answered once the clock is at rest, so
  // the next request lands at a virtual time that depends only on the
  // requests before it (docs/simulation.md §3). No-op on a real clock.
  if (req.method != "GET" && req.method != "HEAD" && req.method != "OPTIONS") ctx.engine.settle();
  return reply;
}

}  // namespace

HttpAdapter::HttpAdapter(const Context& ctx, std::string fallback_base_url)
    : m_ctx(ctx), m_fallback_base_url(std::move(fallback_base_url)) {}

void HttpAdapter::install(httplib::Server& server) const {
  auto plain = [this](const httplib::Request& req, httplib::Response& res) { handle(req, res, nullptr); };
  auto reading = [this](const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& reader) {
    handle(req, res, &reader);
  };
  server.Get(".*", plain).Options(".*", plain);
  server.Post(".*", reading).Put(".*", reading).Patch(".*", reading).Delete(".*", reading);
  server.Post(".*", plain).Put(".*", plain).Patch(".*", plain).Delete(".*", plain);
  server.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
    return pre_route(req, res);
  });
  server.set_expect_100_continue_handler([this](const httplib::Request& req, httplib::Response& res) {
    return expect_continue(req, res);
  });
  server.set_error_handler(httplib::Server::HandlerWithResponse([](const httplib::Request& req, httplib::Response& res) {
    return fill_library_error(req, res) ? httplib::Server::HandlerResponse::Handled
                                   : httplib::Server::HandlerResponse::Unhandled;
  }));
  server.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr error) {
    std::string what = "unknown exception";
    try {
      if (error) std::rethrow_exception(error);
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
    }
    write_error(res, make_error("INTERNAL", "unhandled exception: " + what));
  });
}

httplib::Server::HandlerResponse HttpAdapter::pre_route(const httplib::Request& req, httplib::Response& res) const {
  bool via_base = false;
  std::string_view path = route_path(raw_path(req), m_ctx.options.base_path, via_base);
  if (m_ctx.stopping.load() && path != "/healthz") {
    write_error(res, make_error("MAINTENANCE_ACTIVE", "the server is shutting down"));
    res.set_header("Connection", "close");
    return httplib::Server::HandlerResponse::Handled;
  }
  // Bodies of GET/HEAD/OPTIONS are read by the library before any handler;
  // refuse big ones before that.
  bool body_method = req.method == "POST" || req.method == "PUT" || req.method == "PATCH" || req.method == "DELETE";
  if (!body_method && content_length(req) > m_ctx.options.max_body_bytes) {
    write_error(res, make_error("PAYLOAD_TOO_LARGE", "request body larger than the limit of " +
                                                         std::to_string(m_ctx.options.max_body_bytes) + " bytes"));
    res.set_header("Connection", "close");
    return httplib::Server::HandlerResponse::Handled;
  }
  return httplib::Server::HandlerResponse::Unhandled;
}

// A client that waits for 100 Continue before sending its body learns at
// once when the body it announced is over the route's limit.
int HttpAdapter::expect_continue(const httplib::Request& req, httplib::Response& res) const {
  bool via_base = false;
  auto match = match_route(req.method, route_path(raw_path(req), m_ctx.options.base_path, via_base));
  bool upload = match && match->route->body == BodyKind::stream;
  std::int64_t limit = upload ? m_ctx.options.max_upload_bytes : m_ctx.options.max_body_bytes;
  if (content_length(req) <= limit) return 100;
  write_error(res, make_error("PAYLOAD_TOO_LARGE", std::string(upload ? "upload" : "request body") +
                                                       " larger than the limit of " + std::to_string(limit) +
                                                       " bytes (" + (upload ? "--max-upload" : "--max-body") + ")"));
  res.set_header("Connection", "close");
  return res.status;
}

namespace {

bool names_port(const std::string& host) {
  if (host.front() == '[') return host.find("]:") != std::string::npos;
  return host.find(':') != std::string::npos;
}

}  // namespace

// A Host of a loopback name without a port is what some HTTP stacks send
// for a local server; the URLs in the reply then need the port the request
// came in on (a proxy in front sends its public name, which is left alone).
std::string HttpAdapter::base_url(const httplib::Request& req, bool via_base_path) const {
  const std::string& public_url = m_ctx.options.public_url;
  if (!public_url.empty()) return public_url.back() == '/' ? public_url.substr(0, public_url.size() - 1) : public_url;
  std::string host = req.get_header_value("Host");
  if (host.empty()) return m_fallback_base_url;
  if (!names_port(host) && is_loopback_host(host) && req.local_port > 0) host += ":" + std::to_string(req.local_port);
  std::string scheme = m_ctx.options.tls_cert_file.empty() ? "http://" : "https://";
  return scheme + host + (via_base_path ? m_ctx.options.base_path : "");
}

void HttpAdapter::handle(const httplib::Request& req, httplib::Response& res,
                         const httplib::ContentReader* reader) const {
  auto started = std::chrono::steady_clock::now();
  if (!announces_body(req)) reader = nullptr;  // nothing to read: the library's reader would fail
  bool via_base = false;
  auto match = match_route(req.method, route_path(raw_path(req), m_ctx.options.base_path, via_base));
  bool consumed = false;
  auto reply = match ? run_route(m_ctx, req, *match, base_url(req, via_base), reader, consumed)
                     : Result<Reply>(match.error());
  if (reader && !consumed && !drain_body(*reader)) res.set_header("Connection", "close");
  // The library applies a Range header to any body. Only a single range on
  // a file reply is honoured; the request object is mutable underneath.
  auto& ranges = const_cast<httplib::Request&>(req).ranges;
  if (ranges.size() > 1) ranges.clear();
  if (!reply) write_error(res, reply.error());
  else write_reply(req, res, std::move(*reply), match->route->framing);
  if (res.status != 206) ranges.clear();
  record_request(req.method, match ? std::string_view(match->route->pattern) : "unmatched", res.status,
                 reply ? (is_dry_run(req) ? "dry_run" : "") : reply.error().code,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
}

}  // namespace jgrid::api
