#include "jgrid/util/url.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace jgrid::util {
namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

std::optional<int> parse_port(const std::string& text) {
  int port = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), port);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || port < 1 || port > 65535)
    return std::nullopt;
  return port;
}

// Splits "host[:port]" or "[v6][:port]"; false when malformed.
bool split_authority(const std::string& authority, HttpUrl& url) {
  std::string port;
  if (!authority.empty() && authority[0] == '[') {
    auto close = authority.find(']');
    if (close == std::string::npos) return false;
    url.host = authority.substr(1, close - 1);
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') return false;
      port = authority.substr(close + 2);
      if (port.empty()) return false;
    }
  } else {
    auto colon = authority.rfind(':');
    url.host = authority.substr(0, colon);
    if (colon != std::string::npos) {
      port = authority.substr(colon + 1);
      if (port.empty()) return false;
    }
  }
  if (url.host.empty()) return false;
  url.host = lower(url.host);
  if (port.empty()) return true;
  auto number = parse_port(port);
  if (!number) return false;
  url.port = *number;
  return true;
}

}  // namespace

std::optional<HttpUrl> parse_http_url(const std::string& text) {
  auto sep = text.find("://");
  if (sep == std::string::npos) return std::nullopt;
  HttpUrl url;
  url.scheme = lower(text.substr(0, sep));
  if (url.scheme != "http" && url.scheme != "https") return std::nullopt;
  auto rest = text.substr(sep + 3);
  auto slash = rest.find_first_of("/?#");
  std::string authority = rest.substr(0, slash);
  if (authority.find('@') != std::string::npos || !split_authority(authority, url)) return std::nullopt;
  if (url.port == 0) url.port = url.scheme == "https" ? 443 : 80;
  url.target = slash == std::string::npos ? "/" : rest.substr(slash);
  if (url.target[0] != '/') url.target = "/" + url.target;
  if (auto hash = url.target.find('#'); hash != std::string::npos) url.target.resize(hash);
  return url;
}

bool is_local_host(const std::string& host) {
  std::string h = lower(host);
  return h == "localhost" || h.rfind("127.", 0) == 0 || h == "::1" || h == "0.0.0.0" || h == "::" ||
         (h.size() > 10 && h.compare(h.size() - 10, 10, ".localhost") == 0);
}

bool same_listener(const HttpUrl& a, const HttpUrl& b) {
  if (a.port != b.port) return false;
  return a.host == b.host || (is_local_host(a.host) && is_local_host(b.host));
}

std::string origin_of(const HttpUrl& url) {
  bool v6 = url.host.find(':') != std::string::npos;
  return url.scheme + "://" + (v6 ? "[" + url.host + "]" : url.host) + ":" + std::to_string(url.port);
}

}  // namespace jgrid::util
