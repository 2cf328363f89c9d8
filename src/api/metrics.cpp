// docs/api.md §2.11 /metrics: the HTTP-side series and the scrape handler.
#include "api/metrics.hpp"

#include "api/handlers.hpp"
#include "jgrid/model/status.hpp"
#include "jgrid/util/metrics.hpp"

namespace jgrid::api {
namespace {

using util::MetricType;

util::MetricFamily& http_requests() {
  static auto& family = util::metrics().family("jgrid_http_requests_total", MetricType::counter,
                                               "HTTP requests answered, by method, route pattern and status code.");
  return family;
}

util::MetricFamily& http_latency() {
  static auto& family = util::metrics().family("jgrid_http_request_duration_seconds", MetricType::histogram,
                                               "Time to answer a request (up to the first byte of a stream), by route.",
                                               util::latency_buckets());
  return family;
}

util::MetricFamily& submits() {
  static auto& family = util::metrics().family(
      "jgrid_submit_total", MetricType::counter,
      "Job submissions by result: accepted, replayed (idempotent retry) or the error code.");
  return family;
}

util::MetricFamily& submit_latency() {
  static auto& family = util::metrics().family("jgrid_submit_duration_seconds", MetricType::histogram,
                                               "Time to screen, store and answer a submission.", util::latency_buckets());
  return family;
}

util::MetricFamily& sse_subscribers() {
  static auto& family = util::metrics().family("jgrid_sse_subscribers", MetricType::gauge,
                                               "Open Server-Sent Event streams, by stream (logs, events).");
  return family;
}

constexpr const char* k_dry_run = "dry_run";

bool is_submit(std::string_view method, std::string_view route) {
  return method == "POST" && (route == "/v1/jobs" || route == "/v1/mcp/jobs");
}

std::string submit_result(int status, const std::string& code) {
  if (code == k_dry_run) return "dry_run";
  if (status == 202) return "accepted";
  if (status == 200) return "replayed";
  return code.empty() ? "HTTP_" + std::to_string(status) : code;
}

void add_status_series(util::MetricFamily& jobs, util::MetricFamily& queue, const store::Store& store) {
  auto counts = store.count_jobs_by_status();
  for (auto status : model::all_statuses()) {
    std::string name(model::to_string(status));
    jobs.set({{"status", name}}, static_cast<double>(counts[name]));
  }
  queue.set({}, static_cast<double>(counts["pending"] + counts["queued"]));
}

void add_node_series(util::MetricFamily& free, util::MetricFamily& total, util::MetricFamily& nodes,
                     const Context& ctx) {
  for (const char* vendor : {"amd", "nvidia"}) free.set({{"vendor", vendor}}, 0), total.set({{"vendor", vendor}}, 0);
  for (const auto& node : ctx.engine.nodes()) {
    free.add({{"vendor", node.gpu_vendor}}, node.gpus_free);
    total.add({{"vendor", node.gpu_vendor}}, node.gpu_count);
    nodes.add({{"status", std::string(model::to_string(node.status))}}, 1);
  }
}

// Gauges read from the store and the engine at scrape time.
std::string scrape_gauges(const Context& ctx) {
  util::MetricFamily jobs("jgrid_jobs", MetricType::gauge, "Jobs in the store, by status.", {});
  util::MetricFamily queue("jgrid_queue_depth", MetricType::gauge, "Jobs waiting to be placed (pending or queued).", {});
  util::MetricFamily free("jgrid_node_gpus_free", MetricType::gauge, "Free GPUs over all nodes, by vendor.", {});
  util::MetricFamily total("jgrid_node_gpus", MetricType::gauge, "GPUs over all nodes, by vendor.", {});
  util::MetricFamily nodes("jgrid_nodes", MetricType::gauge, "Nodes by status.", {});
  util::MetricFamily info("jgrid_build_info", MetricType::gauge, "Always 1; the version as a label.", {});
  add_status_series(jobs, queue, ctx.store);
  add_node_series(free, total, nodes, ctx);
  info.set({{"version", JGRID_VERSION}}, 1);
  return info.render() + jobs.render() + nodes.render() + total.render() + free.render() + queue.render();
}

}  // namespace

void record_request(std::string_view method, std::string_view route, int status, const std::string& code,
                    double seconds) {
  std::string route_name(route);
  http_requests().add({{"method", std::string(method)}, {"route", route_name}, {"code", std::to_string(status)}});
  http_latency().observe({{"route", route_name}}, seconds);
  if (!is_submit(method, route)) return;
  submits().add({{"result", submit_result(status, code)}});
  submit_latency().observe({}, seconds);
}

SseSubscriber::SseSubscriber(std::string stream) : m_stream(std::move(stream)) {
  sse_subscribers().add({{"stream", m_stream}}, 1);
}

SseSubscriber::~SseSubscriber() { sse_subscribers().add({{"stream", m_stream}}, -1); }

Result<Reply> metrics_text(const Context& ctx, const Call&) {
  // Series that must exist before their first event.
  for (const char* stream : {"logs", "events"}) sse_subscribers().declare({{"stream", stream}});
  for (const char* result : {"accepted", "replayed", "dry_run"}) submits().declare({{"result", result}});
  submit_latency().declare({});
  http_requests();  // the family (no series until a request is answered)
  http_latency();
  Reply reply;
  reply.kind = Reply::Kind::bytes;
  reply.content_type = "text/plain; version=0.0.4; charset=utf-8";
  reply.bytes = scrape_gauges(ctx) + util::metrics().render();
  reply.headers.emplace_back("Cache-Control", "no-store");
  return reply;
}

}  // namespace jgrid::api
