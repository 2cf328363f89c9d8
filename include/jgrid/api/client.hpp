#pragma once
// A client of a running jgrid-local server, over its HTTP API only (the CLI's
// subcommands use nothing else). Knows both the server's error envelope and
// Server-Sent Events framing; knows nothing of jobs beyond paths and JSON.
//
// Errors: every failure is a util::Error. A server error keeps the server's
// code, message and details, plus details.http_status. A transport failure is
// CONNECTION_FAILED ("cannot reach http://127.0.0.1:8420: Connection
// refused"); a body that is not JSON where JSON is expected is BAD_RESPONSE.
//
// Not thread-safe: one Client per thread (it keeps a connection open).
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "jgrid/util/result.hpp"

namespace jgrid::api {

struct ClientOptions {
  std::string url = "http://127.0.0.1:8420";  // scheme://host[:port][/base-path]
  std::string api_key;                        // "" : no Authorization header
  int connect_timeout_s = 5;
  int read_timeout_s = 60;                    // also the longest silence on a stream
  std::string ca_file;                        // https: CA bundle to verify with ("" : the system store)
};

// One Server-Sent Event (docs/api.md §2.6).
struct SseMessage {
  std::string id;
  std::string event;
  nlohmann::json data;  // parsed `data:` line; null when it was not JSON
};

// A plain-text or byte response (metrics, readiness).
struct RawResponse {
  int status = 0;
  std::string body;
  std::string content_type;
};

class Client {
 public:
  // Error INVALID_URL when `options.url` is not http(s)://host[:port][/path];
  // INVALID_CA_FILE when options.ca_file cannot be read. https verifies the
  // server's certificate (system store or ca_file), never skips it.
  static Result<Client> create(ClientOptions options);
  ~Client();
  Client(Client&&) noexcept;
  Client& operator=(Client&&) noexcept;

  // The normalised base URL (no trailing '/').
  const std::string& url() const;

  // JSON requests. `path` starts with '/' and is relative to the base URL;
  // `query` values are percent-encoded here. Returns the response body.
  Result<nlohmann::json> get(const std::string& path, const std::map<std::string, std::string>& query = {});
  Result<nlohmann::json> post(const std::string& path, const nlohmann::json& body,
                              const std::map<std::string, std::string>& headers = {});

  // Any status, any body (never an error for a 4xx/5xx); transport errors only.
  Result<RawResponse> get_raw(const std::string& path);

  // Follows an SSE stream until the server closes it or `on_event` returns
  // false. Heartbeats are delivered like other events. Errors as get() for
  // the response head (e.g. NOT_FOUND), CONNECTION_FAILED when it breaks.
  Status stream(const std::string& path, const std::function<bool(const SseMessage&)>& on_event,
                const std::string& last_event_id = "");

  // Downloads an absolute URL (e.g. a signed artifact URL; same host or
  // another) into `sink`, calling `progress(received, total)` (total 0 when
  // unknown). The API key is not sent to the URL. Error DOWNLOAD_FAILED
  // (status and server message) or CONNECTION_FAILED.
  Status download(const std::string& absolute_url, const std::function<bool(const char*, std::size_t)>& sink,
                  const std::function<void(std::uint64_t, std::uint64_t)>& progress = {});

 private:
  struct Impl;
  explicit Client(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> m_impl;
};

// Splits "http://host:port/base" into {"http://host:port", "/base"}.
// Error INVALID_URL naming the text.
Result<std::pair<std::string, std::string>> split_url(const std::string& url);

}  // namespace jgrid::api
