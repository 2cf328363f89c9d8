#pragma once
// The series of docs/api.md §2.11 that the HTTP layer records: requests by route
// and code, submits, SSE subscribers. Engine-side series (screening,
// routing) are recorded by the engine in the same process-wide registry;
// scrape-time gauges (jobs by status, queue depth, free GPUs) are computed by
// the /metrics handler.
#include <string>
#include <string_view>

namespace jgrid::api {

// Counts one answered request; `route` is the matched pattern (or
// "unmatched"), `code` the error code ("" on success, "dry_run" for a
// successful ?dry_run=1 submit). Submits (POST on /v1/jobs or /v1/mcp/jobs)
// also count in jgrid_submit_total and its latency histogram.
void record_request(std::string_view method, std::string_view route, int status, const std::string& code,
                    double seconds);

// Counts one open SSE stream while it lives (jgrid_sse_subscribers{stream}).
class SseSubscriber {
 public:
  explicit SseSubscriber(std::string stream);
  ~SseSubscriber();
  SseSubscriber(const SseSubscriber&) = delete;
  SseSubscriber& operator=(const SseSubscriber&) = delete;

 private:
  std::string m_stream;
};

}  // namespace jgrid::api
