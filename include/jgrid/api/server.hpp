#pragma once
// The HTTP server: the route table of docs/api.md §2, both framings, SSE, signed
// URLs and the dashboard. The only module that includes httplib.h.
// Thread-safe: handlers run on the server's pool; stop() may be called from
// any thread (e.g. a signal watcher).
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "jgrid/api/auth.hpp"
#include "jgrid/engine/engine.hpp"
#include "jgrid/store/store.hpp"
#include "jgrid/util/result.hpp"

namespace jgrid::api {

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 8420;                          // 0: pick a free port
  std::string public_url;                   // "" : URLs from the request's Host
  std::string base_path;                    // "" or "/prefix": API also served there
  std::filesystem::path data_dir;           // artifacts and uploads are read/written here
  std::string signing_secret;               // HMAC key for signed URLs
  std::int64_t max_body_bytes = 1 << 20;
  std::int64_t max_upload_bytes = 2LL << 30;
  std::int64_t artifact_url_ttl_ms = 15 * 60 * 1000;
  std::filesystem::path web_dir;            // "" : embedded dashboard; else served from disk
  int threads = 64;
  std::int64_t heartbeat_ms = 15000;        // SSE heartbeat period
  AuthOptions auth;                         // default: auth off, workspace "local"
  // Limits (docs/limits.md). Bodies deeper than max_json_depth, submits with
  // more environment keys or labels are 400; more live-log subscribers on one
  // job than max_stream_subscribers are 429, as are streams beyond
  // max_streams in all or max_streams_per_key of one caller; requests beyond
  // max_connections being served at once wait for a free worker; a request
  // head over max_header_bytes is 431, one not complete within
  // header_timeout_s is 408; at most max_waiting_connections connections
  // wait for a request head (idle keep-alive ones are shed first); a request
  // whose bytes stop arriving for read_timeout_s is dropped; an upload that
  // would leave less than min_free_disk_bytes free in data_dir is 507.
  int max_json_depth = 64;
  int max_env_keys = 256;
  int max_labels = 64;
  int max_stream_subscribers = 64;
  int max_connections = 1024;
  int max_streams = 256;
  int max_streams_per_key = 32;
  int max_header_bytes = 65536;
  int header_timeout_s = 10;
  int max_waiting_connections = 8192;
  int read_timeout_s = 10;
  std::int64_t min_free_disk_bytes = 256LL << 20;
  // Origins (scheme://host:port) whose pages may send state-changing
  // requests besides the server's own; "*" allows any.
  std::vector<std::string> allowed_origins;
  // TLS: both set -> the server speaks HTTPS only (PEM certificate chain and
  // private key); both empty -> plain HTTP.
  std::string tls_cert_file;
  std::string tls_key_file;
};

class Server {
 public:
  Server(engine::Engine& engine, const store::Store& store, ServerOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds the listening socket. Returns the bound port. Error PORT_IN_USE
  // ("port 8420 on 127.0.0.1 is already in use") or BIND_FAILED.
  Result<int> bind();
  // Serves until stop(). Precondition: bind() succeeded.
  void run();
  // Refuses new work with 503 MAINTENANCE_ACTIVE (draining), stops accepting,
  // lets in-flight requests finish, and makes run() return.
  void stop();

  // The absolute base URL, e.g. "http://127.0.0.1:8420" (+ base path).
  std::string url() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace jgrid::api
