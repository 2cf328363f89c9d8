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
  int status = 0;     // HTTP status; 0 when no response arrived
  std::string error;  // "" or why no response arrived ("connection refused", "timed out")
};

// Thread-safe: post() runs on the sender thread while cancel() may be called
// from another one.
class CallbackTransport {
 public:
  virtual ~CallbackTransport() = default;
  // Sends one request and waits for the response (bounded by the
  // implementation's timeouts). Never throws.
  virtual CallbackResponse post(const CallbackRequest& request) = 0;
  // Makes a post() in flight return soon with an error, and every later one
  // at once. Used at shutdown.
  virtual void cancel() = 0;
  // Undoes cancel(): posts go out again (a sender starting anew).
  virtual void resume() = 0;
};

}  // namespace jgrid::engine
