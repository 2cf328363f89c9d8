#include "api/self_address.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstring>

#include "jgrid/util/url.hpp"

namespace jgrid::api {
namespace {

std::string numeric_text(const sockaddr* address, socklen_t length) {
  char text[NI_MAXHOST];
  if (getnameinfo(address, length, text, sizeof(text), nullptr, 0, NI_NUMERICHOST) != 0) return "";
  return text;
}

bool is_special_v4(in_addr_t host_order) { return (host_order >> 24) == 127 || host_order == 0; }

bool is_special_v6(const in6_addr& a) {
  return IN6_IS_ADDR_LOOPBACK(&a) || IN6_IS_ADDR_UNSPECIFIED(&a);
}

// An IPv4-mapped IPv6 address (::ffff:a.b.c.d) as the IPv4 one it maps.
in_addr mapped_v4(const in6_addr& a) {
  in_addr v4;
  std::memcpy(&v4, a.s6_addr + 12, 4);
  return v4;
}

bool is_interface_address(const in_addr* v4, const in6_addr* v6) {
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return false;
  bool found = false;
  for (ifaddrs* i = list; i && !found; i = i->ifa_next) {
    if (!i->ifa_addr) continue;
    if (v4 && i->ifa_addr->sa_family == AF_INET)
      found = reinterpret_cast<const sockaddr_in*>(i->ifa_addr)->sin_addr.s_addr == v4->s_addr;
    if (v6 && i->ifa_addr->sa_family == AF_INET6)
      found = std::memcmp(&reinterpret_cast<const sockaddr_in6*>(i->ifa_addr)->sin6_addr, v6, sizeof(in6_addr)) == 0;
  }
  freeifaddrs(list);
  return found;
}

std::string without_trailing_dot(std::string host) {
  if (host.size() > 1 && host.back() == '.') host.pop_back();
  return host;
}

}  // namespace

std::vector<std::string> resolve_host(const std::string& host) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  std::vector<std::string> out;
  if (getaddrinfo(without_trailing_dot(host).c_str(), nullptr, &hints, &found) != 0) return out;
  for (addrinfo* a = found; a; a = a->ai_next) {
    std::string text = numeric_text(a->ai_addr, static_cast<socklen_t>(a->ai_addrlen));
    if (!text.empty() && std::find(out.begin(), out.end(), text) == out.end()) out.push_back(text);
  }
  freeaddrinfo(found);
  return out;
}

bool is_this_machine(const std::string& ip) {
  std::string bare = ip.substr(0, ip.find('%'));  // a zone id names an interface, not an address
  in_addr v4{};
  in6_addr v6{};
  if (inet_pton(AF_INET, bare.c_str(), &v4) == 1)
    return is_special_v4(ntohl(v4.s_addr)) || is_interface_address(&v4, nullptr);
  if (inet_pton(AF_INET6, bare.c_str(), &v6) != 1) return false;
  if (IN6_IS_ADDR_V4MAPPED(&v6)) {
    in_addr inner = mapped_v4(v6);
    return is_special_v4(ntohl(inner.s_addr)) || is_interface_address(&inner, nullptr);
  }
  return is_special_v6(v6) || is_interface_address(nullptr, &v6);
}

std::optional<std::string> this_machine_address(const std::string& host) {
  std::string name = without_trailing_dot(host);
  if (util::is_local_host(name)) return name;  // e.g. *.localhost, whatever the resolver here makes of it
  for (const auto& address : resolve_host(name))
    if (is_this_machine(address)) return address;
  return std::nullopt;
}

}  // namespace jgrid::api
