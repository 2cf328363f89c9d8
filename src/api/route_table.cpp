#include "api/route_table.hpp"

#include <set>

#include "api/errors.hpp"
#include "jgrid/util/strings.hpp"

namespace jgrid::api {
namespace {


std::vector<std::string> pattern_segments(std::string_view pattern) {
  std::vector<std::string> out;
  for (auto& part : util::split(pattern, '/'))
    if (!part.empty()) out.push_back(part);
  return out;
}

Route compile(const RouteSpec& spec, std::string pattern, model::Framing framing) {
  return Route{std::string(spec.method), pattern, pattern_segments(pattern), spec.handler, spec.access, spec.body, framing};
}

std::vector<Route> build_routes() {
  std::vector<Route> out;
  for (const auto& spec : route_specs()) {
    out.push_back(compile(spec, std::string(spec.pattern), model::Framing::plain));
    if (spec.families == Families::plain_and_mcp && spec.pattern.substr(0, k_plain_prefix.size()) == k_plain_prefix)
      out.push_back(compile(spec, std::string(k_mcp_prefix) + std::string(spec.pattern.substr(k_plain_prefix.size())),
                            model::Framing::envelope));
  }
  return out;
}

Result<std::vector<std::string>> decoded_segments(std::string_view raw_path) {
  std::vector<std::string> out;
  auto parts = util::split(raw_path, '/');
  for (std::size_t i = 0; i < parts.size(); ++i) {
    bool edge = i == 0 || i + 1 == parts.size();
    if (parts[i].empty() && edge) continue;  // leading '/', trailing '/'
    auto decoded = util::percent_decode(parts[i]);
    if (!decoded) return invalid_request("malformed percent-encoding in path segment '" + parts[i] + "'");
    out.push_back(std::move(*decoded));
  }
  return out;
}

bool segments_match(const Route& route, const std::vector<std::string>& path, std::vector<std::string>& captures) {
  captures.clear();
  const auto& pattern = route.segments;
  bool rest = !pattern.empty() && pattern.back() == "{*}";
  std::size_t fixed = rest ? pattern.size() - 1 : pattern.size();
  if (rest ? path.size() < fixed : path.size() != fixed) return false;
  for (std::size_t i = 0; i < fixed; ++i) {
    if (pattern[i].front() == '{') captures.push_back(path[i]);
    else if (pattern[i] != path[i]) return false;
  }
  if (rest) {
    std::string tail;
    for (std::size_t i = fixed; i < path.size(); ++i) tail += (i > fixed ? "/" : "") + path[i];
    captures.push_back(std::move(tail));
  }
  return true;
}

Error method_not_allowed(std::string_view method, const std::set<std::string>& allowed) {
  std::string list;
  for (const auto& m : allowed) list += (list.empty() ? "" : ", ") + m;
  return make_error("METHOD_NOT_ALLOWED", "method " + std::string(method) + " not allowed here; allowed: " + list,
                    Json{{"allowed_methods", allowed}});
}

}  // namespace

const std::vector<Route>& routes() {
  static const std::vector<Route> k_routes = build_routes();
  return k_routes;
}

Result<RouteMatch> match_route(std::string_view method, std::string_view raw_path) {
  auto path = decoded_segments(raw_path);
  if (!path) return path.error();
  std::string_view wanted = method == "HEAD" ? std::string_view("GET") : method;
  std::set<std::string> allowed;
  RouteMatch match;
  for (const auto& route : routes()) {
    if (!segments_match(route, *path, match.captures)) continue;
    if (route.method == wanted) {
      match.route = &route;
      return match;
    }
    allowed.insert(route.method);
    if (route.method == "GET") allowed.insert("HEAD");
  }
  if (!allowed.empty()) return method_not_allowed(method, allowed);
  return make_error("NOT_FOUND", "no route for " + std::string(method) + " " + std::string(raw_path));
}

}  // namespace jgrid::api
