#include "api/self_address.hpp"

#include <catch2/catch.hpp>
#include <ifaddrs.h>
#include <netdb.h>
#include <sys/socket.h>

#include <string>
#include <vector>

using namespace jgrid::api;

namespace {

// An address of one of this machine's interfaces that is not loopback, if any.
std::string interface_address() {
  ifaddrs* list = nullptr;
  std::string found;
  if (getifaddrs(&list) != 0) return found;
  for (ifaddrs* i = list; i && found.empty(); i = i->ifa_next) {
    if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET) continue;
    char text[NI_MAXHOST];
    if (getnameinfo(i->ifa_addr, sizeof(sockaddr_in), text, sizeof(text), nullptr, 0, NI_NUMERICHOST) == 0 &&
        std::string(text).rfind("127.", 0) != 0)
      found = text;
  }
  freeifaddrs(list);
  return found;
}

}  // namespace

TEST_CASE("api::this_machine_address sees loopback through every spelling the connector accepts", "[callback]") {
  for (std::string host : {"127.0.0.1", "2130706433", "0x7f.0.0.1", "0x7f000001", "0177.0.0.1", "017700000001",
                           "127.1", "127.0.1", "127.255.255.254", "0", "0.0.0.0", "localhost", "localhost.",
                           "LOCALHOST", "127.0.0.1.", "foo.localhost", "::1", "::", "::ffff:7f00:1",
                           "::ffff:127.0.0.1", "0:0:0:0:0:0:0:1", "::ffff:0.0.0.0"}) {
    INFO(host);
    CHECK(this_machine_address(host));
  }
}

TEST_CASE("api::this_machine_address lets other machines and unresolvable names through", "[callback]") {
  for (std::string host : {"192.0.2.10", "3221225994", "0xc0.0.2.10", "::ffff:192.0.2.10", "2001:db8::1",
                           "no-such-host.invalid", "1.2.3.4.5", ""}) {
    INFO(host);
    CHECK_FALSE(this_machine_address(host));
  }
}

TEST_CASE("api::resolve_host resolves numeric forms as inet_aton does", "[callback]") {
  CHECK(resolve_host("2130706433") == std::vector<std::string>{"127.0.0.1"});
  CHECK(resolve_host("0x7f.0.0.1") == std::vector<std::string>{"127.0.0.1"});
  CHECK(resolve_host("0177.0.0.1") == std::vector<std::string>{"127.0.0.1"});
  CHECK(resolve_host("127.1") == std::vector<std::string>{"127.0.0.1"});
  CHECK(resolve_host("0") == std::vector<std::string>{"0.0.0.0"});
  CHECK(resolve_host("127.0.0.1.") == std::vector<std::string>{"127.0.0.1"});
  CHECK(resolve_host("::ffff:7f00:1") == std::vector<std::string>{"::ffff:127.0.0.1"});
  CHECK(resolve_host("no-such-host.invalid").empty());
}

TEST_CASE("api::is_this_machine knows this machine's interface addresses", "[callback]") {
  CHECK(is_this_machine("127.0.0.1"));
  CHECK(is_this_machine("::ffff:127.0.0.2"));
  CHECK_FALSE(is_this_machine("192.0.2.1"));
  CHECK_FALSE(is_this_machine("not an address"));
  std::string own = interface_address();
  if (!own.empty()) {
    INFO(own);
    CHECK(is_this_machine(own));
    CHECK(is_this_machine("::ffff:" + own));
  }
}
