#include "api/request_checks.hpp"

#include <algorithm>

#include "jgrid/util/strings.hpp"

namespace jgrid::api {
namespace {

// "HTTP://Example.COM:80/" -> "http://example.com:80" (paths never belong
// to an origin; a browser sends none).
std::string normal_origin(std::string origin) {
  origin = util::to_lower(util::trim(origin));
  while (!origin.empty() && origin.back() == '/') origin.pop_back();
  return origin;
}

bool listed(const std::string& origin, const std::vector<std::string>& allowed) {
  return std::any_of(allowed.begin(), allowed.end(),
                     [&](const std::string& entry) { return entry == "*" || normal_origin(entry) == origin; });
}

// "[::1]:8420" -> "[::1]", "localhost:80" -> "localhost".
std::string_view without_port(std::string_view host) {
  if (!host.empty() && host.front() == '[') return host.substr(0, host.find(']') + 1);
  return host.substr(0, host.find(':'));
}

bool ends_with(std::string_view text, std::string_view tail) {
  return text.size() >= tail.size() && text.substr(text.size() - tail.size()) == tail;
}

}  // namespace

bool is_loopback_host(std::string_view host) {
  std::string name = util::to_lower(without_port(host));
  if (!name.empty() && name.back() == '.') name.pop_back();
  return name == "localhost" || ends_with(name, ".localhost") || name == "[::1]" ||
         (name.rfind("127.", 0) == 0 && name.find_first_not_of("0123456789.") == std::string::npos);
}

bool changes_state(std::string_view method) {
  return method == "POST" || method == "PUT" || method == "PATCH" || method == "DELETE";
}

Result<Ok> check_origin(std::string_view method, const std::string& origin, const std::string& host, bool tls,
                        bool loopback_server, const std::vector<std::string>& allowed) {
  if (origin.empty() || !changes_state(method)) return Ok{};
  std::string sent = normal_origin(origin);
  std::string own = std::string(tls ? "https://" : "http://") + util::to_lower(util::trim(host));
  bool own_origin = sent == own && (!loopback_server || is_loopback_host(host));
  if (own_origin || listed(sent, allowed)) return Ok{};
  return make_error("FORBIDDEN",
                    "requests from origin " + origin + " are refused: only this server's own pages (" + own +
                        ") may change state; start the server with --allow-origin " + origin + " to allow it",
                    {{"field", "Origin"}, {"origin", origin}});
}

Result<Ok> check_json_content_type(const std::string& content_type) {
  std::string type = util::to_lower(util::trim(content_type.substr(0, content_type.find(';'))));
  bool json = type == "application/json" ||
              (type.rfind("application/", 0) == 0 && type.size() > 5 && type.substr(type.size() - 5) == "+json");
  if (json) return Ok{};
  std::string sent = content_type.empty() ? "no Content-Type" : "Content-Type " + content_type;
  return make_error("UNSUPPORTED_MEDIA_TYPE",
                    "this route takes a JSON body: send Content-Type: application/json (got " + sent + ")",
                    {{"field", "Content-Type"}, {"expected", "application/json"}});
}

}  // namespace jgrid::api
