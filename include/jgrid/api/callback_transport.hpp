#pragma once
// The HTTP implementation of engine::CallbackTransport (docs/api.md §5): one
// POST per attempt on a fresh connection, 5 s to connect, 10 s to answer.
// https:// targets need a build with TLS support in the HTTP library; without
// it each attempt fails with "https is not supported by this build".
#include <memory>

#include "jgrid/engine/callback_transport.hpp"

namespace jgrid::api {

// POSTs callbacks over http or https; https verifies the receiver's
// certificate against `ca_file` ("" : the system store), never skips it.
std::shared_ptr<engine::CallbackTransport> make_http_callback_transport(std::string ca_file = "");

}  // namespace jgrid::api
