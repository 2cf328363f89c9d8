#pragma once
// Absolute http(s) URLs split into their parts. Pure.
#include <optional>
#include <string>

namespace jgrid::util {

struct HttpUrl {
  std::string scheme;  // "http" or "https" (lower case)
  std::string host;    // lower case, IPv6 without brackets
  int port = 0;        // explicit, or 80 / 443 from the scheme
  std::string target;  // path and query, "/" when absent
};

// nullopt unless `url` is http:// or https:// with a host and, if given, a
// port in 1..65535. No userinfo ("user@host") is accepted.
std::optional<HttpUrl> parse_http_url(const std::string& url);

// True for names of this machine's loopback or any-address interfaces
// ("localhost", "127.x.y.z", "::1", "0.0.0.0", "::").
bool is_local_host(const std::string& host);

// Whether `a` and `b` reach the same listener: same port, and the same host
// or both local (is_local_host).
bool same_listener(const HttpUrl& a, const HttpUrl& b);

// "scheme://host:port" (IPv6 in brackets).
std::string origin_of(const HttpUrl& url);

}  // namespace jgrid::util
