#include "api/tls.hpp"

#include <openssl/x509_vfy.h>

#include <cstdlib>

namespace jgrid::api {
namespace {

const char* const k_ca_hint = "pass --ca-file FILE (or set JGRID_CA_FILE) with the CA that signed it";

std::string verification_failure(long result, const std::string& host) {
  switch (result) {
    case X509_V_OK:  // the chain is good: the library's host check refused it
      return "TLS: the certificate does not name host " + host;
    case X509_V_ERR_CERT_HAS_EXPIRED:
      return "TLS: the certificate of " + host + " has expired";
    case X509_V_ERR_CERT_NOT_YET_VALID:
      return "TLS: the certificate of " + host + " is not valid yet";
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
      return "TLS: the certificate of " + host + " is signed by a CA this machine does not trust: " + k_ca_hint;
    default:
      return "TLS: the certificate of " + host + " failed verification: " +
             X509_verify_cert_error_string(result);
  }
}

}  // namespace

ServerTls make_server_tls(const std::string& cert_file, const std::string& key_file) {
  ServerTls ctx(SSL_CTX_new(TLS_server_method()));
  if (!ctx) return nullptr;
  SSL_CTX_set_min_proto_version(ctx.get(), TLS1_2_VERSION);
  // An idle or trickling connection keeps no read and write buffers (~34 KB each).
  SSL_CTX_set_mode(ctx.get(), SSL_MODE_RELEASE_BUFFERS);
  // Resumption by tickets only: a server-side cache would keep a session
  // for every handshake, thousands after a burst of connections.
  SSL_CTX_set_session_cache_mode(ctx.get(), SSL_SESS_CACHE_OFF);
  SSL_CTX_set_options(ctx.get(), SSL_OP_NO_COMPRESSION | SSL_OP_NO_SESSION_RESUMPTION_ON_RENEGOTIATION |
                                     SSL_OP_NO_RENEGOTIATION);
  if (SSL_CTX_use_certificate_chain_file(ctx.get(), cert_file.c_str()) != 1 ||
      SSL_CTX_use_PrivateKey_file(ctx.get(), key_file.c_str(), SSL_FILETYPE_PEM) != 1 ||
      SSL_CTX_check_private_key(ctx.get()) != 1)
    return nullptr;
  return ctx;
}

std::unique_ptr<httplib::Client> make_verified_client(const std::string& origin, const std::string& ca_file) {
  auto client = std::make_unique<httplib::Client>(origin);
  client->enable_server_certificate_verification(true);
  if (!ca_file.empty()) client->set_ca_cert_path(ca_file);
  return client;
}

std::string transport_failure(const httplib::Client& client, httplib::Error error, const std::string& host) {
  switch (error) {
    case httplib::Error::SSLServerVerification:
      return verification_failure(client.get_openssl_verify_result(), host);
    case httplib::Error::SSLConnection:
      return "TLS handshake with " + host + " failed (a plain-HTTP server, or no common protocol)";
    case httplib::Error::SSLLoadingCerts:
      return "TLS: cannot load the CA certificates (check --ca-file / JGRID_CA_FILE)";
    default:
      return httplib::to_string(error);
  }
}

std::string ca_file_from_env() {
  const char* value = std::getenv("JGRID_CA_FILE");
  return value ? value : "";
}

}  // namespace jgrid::api
