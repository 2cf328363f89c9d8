#pragma once
// Route handlers, one function per route of docs/api.md §2; the table in
// routes.cpp names them. Each reads a Call and returns a JSON payload or a
// Reply; errors are Results mapped by to_http_error.
#include "api/call.hpp"

namespace jgrid::api {

// jobs_routes.cpp (§2.1–2.4)
Result<Json> estimate_job(const Context& ctx, const Call& call);
Result<Reply> submit_job(const Context& ctx, const Call& call);
Result<Json> list_jobs(const Context& ctx, const Call& call);
Result<Reply> get_job(const Context& ctx, const Call& call);
Result<Json> get_runtime(const Context& ctx, const Call& call);
Result<Json> cancel_job(const Context& ctx, const Call& call);

// logs_routes.cpp (§2.5, §2.6)
Result<Json> get_logs(const Context& ctx, const Call& call);
Result<Reply> stream_logs(const Context& ctx, const Call& call);

// events_routes.cpp (§2.7)
Result<Json> get_job_events(const Context& ctx, const Call& call);
Result<Reply> stream_events(const Context& ctx, const Call& call);

// artifacts_routes.cpp (§2.8)
Result<Json> list_artifacts(const Context& ctx, const Call& call);
Result<Json> download_artifact(const Context& ctx, const Call& call);
Result<Reply> artifact_content(const Context& ctx, const Call& call);

// inputs_routes.cpp (§2.9)
Result<Json> create_input(const Context& ctx, const Call& call);
Result<Reply> upload_input(const Context& ctx, const Call& call);
Result<Json> complete_input(const Context& ctx, const Call& call);
Result<Json> list_inputs(const Context& ctx, const Call& call);

// nodes_routes.cpp (§2.10 list)
Result<Reply> list_nodes(const Context& ctx, const Call& call);

// system_routes.cpp (§2.10 one node, §2.11, dashboard)
Result<Json> get_node(const Context& ctx, const Call& call);
Result<Json> healthz(const Context& ctx, const Call& call);
Result<Reply> readyz(const Context& ctx, const Call& call);
Result<Json> health(const Context& ctx, const Call& call);
Result<Reply> dashboard(const Context& ctx, const Call& call);

// introspect_routes.cpp (docs/api.md §2: service token)
Result<Json> introspect_key(const Context& ctx, const Call& call);

// metrics.cpp, openapi.cpp (§2.11)
Result<Reply> metrics_text(const Context& ctx, const Call& call);
Result<Reply> openapi_document(const Context& ctx, const Call& call);

// sim_routes.cpp (docs/simulation.md §3, §4)
Result<Json> get_sim_clock(const Context& ctx, const Call& call);
Result<Json> advance_sim_clock(const Context& ctx, const Call& call);
Result<Json> list_sim_faults(const Context& ctx, const Call& call);
Result<Reply> add_sim_fault(const Context& ctx, const Call& call);
Result<Json> delete_sim_fault(const Context& ctx, const Call& call);
Result<Json> sim_node_operation(const Context& ctx, const Call& call);
Result<Json> reset_sim(const Context& ctx, const Call& call);
Result<Json> get_sim_digest(const Context& ctx, const Call& call);
Result<Json> get_sim_utilisation(const Context& ctx, const Call& call);

}  // namespace jgrid::api
