#pragma once
// The seam between cpp-httplib and the route handlers: turns a request into
// a Call, runs the matched route, and writes its Reply (or error) back.
// Thread-safe: const after construction; runs on the server's pool.
#include <httplib.h>

#include <string>

#include "api/call.hpp"

namespace jgrid::api {

class HttpAdapter {
 public:
  // `ctx` must outlive the adapter; `fallback_base_url` is used when a
  // request has no Host header.
  HttpAdapter(const Context& ctx, std::string fallback_base_url);

  // Installs the catch-all handlers, the pre-routing checks (draining,
  // oversized bodies) and the JSON safety nets on `server`.
  void install(httplib::Server& server) const;

  void set_fallback_base_url(std::string url) { m_fallback_base_url = std::move(url); }

 private:
  void handle(const httplib::Request& req, httplib::Response& res, const httplib::ContentReader* reader) const;
  httplib::Server::HandlerResponse pre_route(const httplib::Request& req, httplib::Response& res) const;
  int expect_continue(const httplib::Request& req, httplib::Response& res) const;
  std::string base_url(const httplib::Request& req, bool via_base_path) const;

  const Context& m_ctx;
  std::string m_fallback_base_url;
};

}  // namespace jgrid::api
