// The route table of api.md §2: one line per route.
#include "api/handlers.hpp"
#include "api/route_table.hpp"

namespace jgrid::api {

const std::vector<RouteSpec>& route_specs() {
  using B = BodyKind;
  using F = Families;
  static const std::vector<RouteSpec> k_specs = {
      {"POST", "/v1/jobs/estimate", estimate_job, B::json, F::plain_and_mcp},
      {"POST", "/v1/jobs", submit_job, B::json, F::plain_and_mcp},
      {"GET", "/v1/jobs", list_jobs, B::none, F::plain_and_mcp},
      {"GET", "/v1/jobs/{id}", get_job, B::none, F::plain_and_mcp},
      {"POST", "/v1/jobs/{id}/cancel", cancel_job, B::optional_json, F::plain_and_mcp},
      {"GET", "/v1/jobs/{id}/runtime", get_runtime},
      {"GET", "/v1/jobs/{id}/logs", get_logs, B::none, F::plain_and_mcp},
      {"GET", "/v1/jobs/{id}/logs/live", stream_logs},
      {"GET", "/v1/jobs/{id}/events", get_job_events},
      {"GET", "/v1/jobs/{id}/artifacts", list_artifacts, B::none, F::plain_and_mcp},
      {"POST", "/v1/jobs/{id}/artifacts/{aid}/download", download_artifact, B::optional_json, F::plain_and_mcp},
      {"GET", "/v1/artifacts/{aid}/content", artifact_content},
      {"GET", "/v1/events", stream_events},
      {"POST", "/v1/job-inputs", create_input, B::json},
      {"GET", "/v1/job-inputs", list_inputs},
      {"PUT", "/v1/job-inputs/{iid}/content", upload_input, B::stream},
      {"POST", "/v1/job-inputs/{iid}/complete", complete_input, B::optional_json},
      {"GET", "/v1/nodes", list_nodes},
      {"GET", "/v1/nodes/{id}", get_node},
      {"GET", "/v1/sim/clock", get_sim_clock},
      {"POST", "/v1/sim/clock/advance", advance_sim_clock, B::json},
      {"GET", "/v1/sim/faults", list_sim_faults},
      {"POST", "/v1/sim/faults", add_sim_fault, B::json},
      {"DELETE", "/v1/sim/faults/{fid}", delete_sim_fault},
      {"POST", "/v1/sim/nodes/{id}/{op}", sim_node_operation, B::optional_json},
      {"POST", "/v1/sim/reset", reset_sim, B::optional_json},
      {"GET", "/v1/sim/digest", get_sim_digest},
      {"GET", "/healthz", healthz},
      {"GET", "/readyz", readyz},
      {"GET", "/v1/health", health},
      {"GET", "/metrics", metrics_text},
      {"GET", "/openapi.json", openapi_document},
      {"GET", "/", dashboard},
      {"GET", "/ui/{*}", dashboard},
  };
  return k_specs;
}

}  // namespace jgrid::api
