#pragma once
// docs/api.md §5: whether a callback's host is this machine. Compared by
// address, not by spelling: the host is resolved the way the connector
// resolves it, so "2130706433", "0x7f.0.0.1", "0177.0.0.1", "127.1",
// "0", "[::ffff:7f00:1]" and "localhost." are all found to be loopback.
// Reads the resolver and this machine's interfaces (getaddrinfo,
// getifaddrs); no other network traffic. Thread-safe.
#include <optional>
#include <string>
#include <vector>

namespace jgrid::api {

// The numeric addresses `host` (a URL's host, IPv6 without brackets) names,
// in the resolver's order: getaddrinfo (any family, stream sockets), which
// takes every inet_aton form of IPv4 (decimal, hex, octal, short) as well
// as names. One trailing dot is dropped first ("localhost." is
// "localhost"). Empty when nothing resolves.
std::vector<std::string> resolve_host(const std::string& host);

// Whether the numeric address `ip` reaches this machine: loopback
// (127.0.0.0/8, ::1), an any-address (0.0.0.0, ::), an address of one of
// its interfaces, or the IPv4-mapped IPv6 form of one of these. False for
// text that is not a numeric address.
bool is_this_machine(const std::string& ip);

// What makes `host` this machine: "localhost" spellings ("localhost",
// "*.localhost", with or without a trailing dot) name themselves, anything
// else the first address it resolves to that is_this_machine. nullopt when
// it is another machine or does not resolve.
std::optional<std::string> this_machine_address(const std::string& host);

}  // namespace jgrid::api
