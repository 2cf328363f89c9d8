#pragma once
// The HTTP implementation of engine::CallbackTransport (docs/api.md §5): one
// POST per attempt on a fresh connection, 5 s to connect and 15 s of wall
// time for the whole attempt (connect, request, reply head and body). Of a
// reply it reads the head and at most `max_reply_body` bytes of the body,
// then drops the connection; the status decides. Before each attempt it
// resolves the host, refuses one that is this server (an address of this
// machine with this server's port) and connects to the very address it
// checked, so a name that changes its answer meanwhile cannot turn the
// callback back at this server.
// https:// targets need a build with TLS support in the HTTP library; without
// it each attempt fails with "https is not supported by this build".
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "jgrid/engine/callback_transport.hpp"

namespace jgrid::api {

struct CallbackTransportOptions {
  std::string ca_file;                // verifies https receivers; "" : the system store
  std::function<int()> server_port;   // this server's port; unset or 0: not known yet (no self check)
  std::chrono::milliseconds attempt_deadline{15000};  // wall time of one attempt
  std::size_t max_reply_body = 4096;         // body bytes read (and kept for diagnostics)
  std::uint64_t max_reply_head = 256 * 1024;  // bytes received before the head is complete
};

// POSTs callbacks over http or https; https verifies the receiver's
// certificate against `options.ca_file`, never skips it.
std::shared_ptr<engine::CallbackTransport> make_http_callback_transport(CallbackTransportOptions options = {});

}  // namespace jgrid::api
