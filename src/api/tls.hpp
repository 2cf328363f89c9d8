#pragma once
// Outgoing HTTP(S) connections with verified TLS: the client commands,
// callbacks and the registry client all connect through here. https://
// origins verify the server's certificate against the system store, or
// against the CA bundle given (--ca-file, $JGRID_CA_FILE); there is no way to
// turn verification off. A failure says which check failed.
#include <httplib.h>

#include <memory>
#include <string>

namespace jgrid::api {

// A client for "http://host:port" or "https://host:port"; `ca_file` ""
// means the system store.
std::unique_ptr<httplib::Client> make_verified_client(const std::string& origin, const std::string& ca_file);

// Why a request on `client` failed, for humans: for TLS verification,
// "its certificate has expired", "its certificate is signed by a CA this
// machine does not trust (…)" or "its certificate does not name host H".
std::string transport_failure(const httplib::Client& client, httplib::Error error, const std::string& host);

// $JGRID_CA_FILE, or "".
std::string ca_file_from_env();

}  // namespace jgrid::api
