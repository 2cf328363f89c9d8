#pragma once
// docs/api.md §5: a callback must not point at this server (it would call its
// own API with job results). Checked at submit, where the server knows the
// address it listens on, the Host it was reached by and its public URL.
#include "api/call.hpp"
#include "jgrid/model/job_spec.hpp"

namespace jgrid::api {

// Error INVALID_REQUEST naming the request field that held the URL when the
// job's callback targets this server: the same listener as the bound
// host:port or the request's base URL (loopback names are one machine), a
// host that resolves to an address of this machine (self_address.hpp) with
// the bound port, or a URL under the public URL. A host that does not
// resolve is let through: the sender checks again before each attempt.
Status check_callback_target(const Context& ctx, const Call& call, const model::JobSpec& spec);

}  // namespace jgrid::api
