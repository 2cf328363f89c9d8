#pragma once
// The seam between the callback sender and the network: one POST. The
// engine signs and schedules; an implementation only moves bytes (the HTTP
// one lives in the api module, the only place that speaks HTTP).
#include <map>
#include <memory>
#include <string>

namespace jgrid::engine {

struct CallbackRequest {
  std::string url;                            // http:// or https://
  std::map<std::string, std::string> headers;  // besides Content-Type
  std::string body;                           // application/json
};

struct CallbackResponse {
  int status = 0;        // HTTP status; 0 when no response arrived
  std::string error;     // "" or why no response arrived ("connection refused", "timed out")
  std::string body;      // the start of the reply body, at most the implementation's cap (diagnostics)
  bool truncated = false;  // the reply body was longer than the cap, or cut at the deadline
  bool retry = true;     // false: repeating the same request can only fail the same way
};

// Thread-safe: post() runs on several sender threads at once while cancel()
// may be called from another one.
class CallbackTransport {
 public:
  virtual ~CallbackTransport() = default;
  // Sends one request and waits for the response head and the start of its
  // body (bounded in time and size by the implementation). Never throws.
  virtual CallbackResponse post(const CallbackRequest& request) = 0;
  // Makes every post() in flight return soon with an error, and every later
  // one at once. Used at shutdown.
  virtual void cancel() = 0;
  // Undoes cancel(): posts go out again (a sender starting anew).
  virtual void resume() = 0;
};

}  // namespace jgrid::engine
