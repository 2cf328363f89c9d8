// The route table of docs/api.md §2: one line per route, with the scopes a key
// needs when auth is on (any one of them suffices).
#include "api/handlers.hpp"
#include "api/route_table.hpp"

namespace jgrid::api {
namespace {

const Access k_open{AccessKind::open, {}};
const Access k_signed{AccessKind::signature, {}};
const Access k_service{AccessKind::service, {}};
const Access k_read_list{AccessKind::scopes, {"jobs:read"}};
const Access k_read{AccessKind::scopes, {"jobs:read", "jobs:write"}};
const Access k_logs{AccessKind::scopes, {"logs:read", "jobs:read", "jobs:write"}};
const Access k_estimate{AccessKind::scopes, {"jobs:estimate", "jobs:write"}};
const Access k_submit{AccessKind::scopes, {"jobs:submit", "jobs:write"}};
const Access k_write{AccessKind::scopes, {"jobs:write"}};
// A key-less uploader completes with the upload token in the body.
const Access k_complete_upload{AccessKind::scopes_or_token, {"jobs:submit", "jobs:write"}};
// The reset deletes the jobs of every workspace, not only the caller's:
// a scope of its own, which no jobs:* scope implies.
const Access k_reset{AccessKind::scopes, {"sim:reset"}};

}  // namespace

const std::vector<RouteSpec>& route_specs() {
  using B = BodyKind;
  using F = Families;
  static const std::vector<RouteSpec> k_specs = {
      {"POST", "/v1/jobs/estimate", estimate_job, k_estimate, B::json, F::plain_and_mcp},
      {"POST", "/v1/jobs", submit_job, k_submit, B::json, F::plain_and_mcp},
      {"GET", "/v1/jobs", list_jobs, k_read_list, B::none, F::plain_and_mcp},
      {"GET", "/v1/jobs/{id}", get_job, k_read, B::none, F::plain_and_mcp},
      {"POST", "/v1/jobs/{id}/cancel", cancel_job, k_submit, B::optional_json, F::plain_and_mcp},
      {"GET", "/v1/jobs/{id}/runtime", get_runtime, k_read},
      {"GET", "/v1/jobs/{id}/logs", get_logs, k_logs, B::none, F::plain_and_mcp},
      {"GET", "/v1/jobs/{id}/logs/live", stream_logs, k_logs},
      {"GET", "/v1/jobs/{id}/events", get_job_events, k_read},
      {"GET", "/v1/jobs/{id}/artifacts", list_artifacts, k_read, B::none, F::plain_and_mcp},
      {"POST", "/v1/jobs/{id}/artifacts/{aid}/download", download_artifact, k_read, B::optional_json,
       F::plain_and_mcp},
      {"GET", "/v1/artifacts/{aid}/content", artifact_content, k_signed},
      {"GET", "/v1/events", stream_events, k_read_list},
      {"POST", "/v1/job-inputs", create_input, k_submit, B::json},
      {"GET", "/v1/job-inputs", list_inputs, k_read_list},
      {"PUT", "/v1/job-inputs/{iid}/content", upload_input, k_signed, B::stream},
      {"POST", "/v1/job-inputs/{iid}/complete", complete_input, k_complete_upload, B::optional_json},
      {"GET", "/v1/nodes", list_nodes, k_read_list},
      {"GET", "/v1/nodes/{id}", get_node, k_read_list},
      {"POST", "/oauth/introspect", introspect_key, k_service, B::stream},
      {"GET", "/v1/sim/clock", get_sim_clock, k_write},
      {"POST", "/v1/sim/clock/advance", advance_sim_clock, k_write, B::json},
      {"GET", "/v1/sim/faults", list_sim_faults, k_write},
      {"POST", "/v1/sim/faults", add_sim_fault, k_write, B::json},
      {"DELETE", "/v1/sim/faults/{fid}", delete_sim_fault, k_write},
      {"POST", "/v1/sim/nodes/{id}/{op}", sim_node_operation, k_write, B::optional_json},
      {"POST", "/v1/sim/reset", reset_sim, k_reset, B::optional_json},
      {"GET", "/v1/sim/digest", get_sim_digest, k_write},
      {"GET", "/v1/sim/utilisation", get_sim_utilisation, k_write},
      {"GET", "/healthz", healthz, k_open},
      {"GET", "/readyz", readyz, k_open},
      {"GET", "/v1/health", health, k_open},
      {"GET", "/metrics", metrics_text, k_open},
      {"GET", "/openapi.json", openapi_document, k_open},
      {"GET", "/", dashboard, k_open},
      {"GET", "/ui/{*}", dashboard, k_open},
  };
  return k_specs;
}

}  // namespace jgrid::api
