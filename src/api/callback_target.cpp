#include "api/callback_target.hpp"

#include "api/errors.hpp"
#include "api/self_address.hpp"
#include "jgrid/util/url.hpp"

namespace jgrid::api {
namespace {

// The request field that held the URL (the decoder's precedence).
std::string url_field(const Json& body) {
  if (auto it = body.find("callback"); it != body.end() && it->is_object() && it->contains("url")) return "callback.url";
  if (auto it = body.find("callback"); it != body.end() && it->is_string()) return "callback";
  if (body.contains("callback_url")) return "callback_url";
  return "webhook_url";
}

bool under(const util::HttpUrl& url, const std::string& base_text) {
  auto base = util::parse_http_url(base_text);
  if (!base || !util::same_listener(url, *base)) return false;
  std::string prefix = base->target;
  while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
  return prefix.empty() || url.target == prefix || url.target.rfind(prefix + "/", 0) == 0 ||
         url.target.rfind(prefix + "?", 0) == 0;
}

bool targets_self(const Context& ctx, const Call& call, const util::HttpUrl& url) {
  const ServerOptions& o = ctx.options;
  util::HttpUrl listener{"http", o.host, o.port, "/"};
  if (util::same_listener(url, listener)) return true;
  // Any spelling of any address of this machine, on the port it listens on.
  if (url.port == o.port && this_machine_address(url.host)) return true;
  // With a public URL the base URL is that URL, which may be a proxy's path
  // beside other services; without one it is this listener by another name.
  if (!o.public_url.empty()) return under(url, o.public_url);
  auto reached = util::parse_http_url(call.base_url);
  return reached && util::same_listener(url, *reached);
}

}  // namespace

Status check_callback_target(const Context& ctx, const Call& call, const model::JobSpec& spec) {
  if (!spec.callback) return Ok{};
  auto url = util::parse_http_url(spec.callback->url);
  std::string field = url_field(call.body);
  if (!url) return invalid_request(field + ": expected an http:// or https:// URL with a host", field);
  if (targets_self(ctx, call, *url))
    return invalid_request(field + ": the callback URL " + spec.callback->url +
                               " points at this server; give the address of a receiver of your own",
                           field);
  return Ok{};
}

}  // namespace jgrid::api
