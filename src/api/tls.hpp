#pragma once
// TLS of the server's own HTTPS, and outgoing HTTP(S) connections with verified TLS: the client commands,
// callbacks and the registry client all connect through here. https://
// origins verify the server's certificate against the system store, or
// against the CA bundle given (--ca-file, $JGRID_CA_FILE); there is no way to
// turn verification off. A failure says which check failed.
#include <httplib.h>
#include <openssl/ssl.h>

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

// The TLS context of an HTTPS server: the PEM certificate chain and private
// key, TLS 1.2 or later. Null when a file cannot be loaded or they do not match.
struct SslCtxFree {
  void operator()(SSL_CTX* ctx) const { SSL_CTX_free(ctx); }
};
using ServerTls = std::unique_ptr<SSL_CTX, SslCtxFree>;
ServerTls make_server_tls(const std::string& cert_file, const std::string& key_file);

// $JGRID_CA_FILE, or "".
std::string ca_file_from_env();

}  // namespace jgrid::api
