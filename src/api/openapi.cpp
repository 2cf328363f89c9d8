// The operation table of /openapi.json and the document built from it.
#include "api/openapi.hpp"

#include <string>
#include <vector>

#include "api/handlers.hpp"
#include "api/route_table.hpp"

namespace jgrid::api {
namespace {

// How a successful response is described.
enum class Body { json, sse, bytes, text, html };

struct Operation {
  const char* method;
  const char* path;        // OpenAPI path ("{path}" for a rest-of-path capture)
  const char* id;
  const char* tag;
  const char* summary;
  std::vector<const char*> query;  // query parameter names (strings)
  const char* request;     // request schema ("" none); "?" prefix: optional body
  int status;              // success status
  const char* response;    // plain response schema, or "" for non-JSON bodies
  const char* mcp_response;  // "" : no /v1/mcp variant
  std::vector<int> errors;
  Body body = Body::json;
};

const std::vector<Operation>& operations() {
  static const std::vector<Operation> k_operations = {
      {"POST", "/v1/jobs/estimate", "estimateJob", "jobs", "Screen, classify, route and price a job; nothing is stored",
       {}, "JobRequest", 200, "Estimate", "EstimateMcp", {400, 413}},
      {"POST", "/v1/jobs", "submitJob", "jobs", "Submit a job (202; 200 when an Idempotency-Key replays the first job)",
       {"dry_run"}, "JobRequest", 202, "Job", "JobMcp", {400, 404, 409, 413, 422, 503}},
      {"GET", "/v1/jobs", "listJobs", "jobs", "List jobs, newest first",
       {"limit", "cursor", "status", "workload_type", "gpu_vendor"}, "", 200, "JobList", "JobListMcp", {400}},
      {"GET", "/v1/jobs/{id}", "getJob", "jobs", "One job", {}, "", 200, "Job", "JobMcp", {404}},
      {"POST", "/v1/jobs/{id}/cancel", "cancelJob", "jobs", "Cancel a job that has not ended",
       {}, "?CancelRequest", 200, "CancelResult", "CancelResult", {404, 409}},
      {"GET", "/v1/jobs/{id}/runtime", "getJobRuntime", "jobs", "Exit code and output tails", {}, "", 200, "Runtime", "",
       {404}},
      {"GET", "/v1/jobs/{id}/logs", "getJobLogs", "logs", "Stored log lines with a cursor",
       {"limit", "cursor", "tail", "stream"}, "", 200, "LogPage", "LogPage", {400, 404}},
      {"GET", "/v1/jobs/{id}/logs/live", "streamJobLogs", "logs",
       "Live logs as Server-Sent Events: status, notice, stdout, stderr, heartbeat, terminal", {"cursor"}, "", 200, "",
       "", {404}, Body::sse},
      {"GET", "/v1/jobs/{id}/events", "getJobEvents", "events", "Lifecycle events, oldest first",
       {"limit", "cursor", "type", "since"}, "", 200, "EventPage", "", {400, 404}},
      {"GET", "/v1/jobs/{id}/artifacts", "listArtifacts", "artifacts", "Artifacts of a job", {}, "", 200, "ArtifactList",
       "ArtifactList", {404}},
      {"POST", "/v1/jobs/{id}/artifacts/{aid}/download", "downloadArtifact", "artifacts",
       "A signed download URL for one artifact", {}, "", 200, "DownloadLink", "DownloadLink", {404, 409}},
      {"GET", "/v1/artifacts/{aid}/content", "getArtifactContent", "artifacts",
       "Artifact bytes behind a signed URL (no bearer; Range supported)", {"expires", "sig"}, "", 200, "", "",
       {403, 404}, Body::bytes},
      {"GET", "/v1/events", "streamEvents", "events",
       "Every event of the server as Server-Sent Events (Last-Event-ID replays)", {"after"}, "", 200, "", "", {400},
       Body::sse},
      {"POST", "/v1/job-inputs", "createJobInput", "inputs", "Start an upload: returns a signed PUT URL", {},
       "CreateInputRequest", 200, "UploadTicket", "", {400}},
      {"GET", "/v1/job-inputs", "listJobInputs", "inputs", "Uploaded inputs, oldest first",
       {"limit", "cursor", "kind", "status"}, "", 200, "InputList", "", {400}},
      {"PUT", "/v1/job-inputs/{iid}/content", "uploadJobInput", "inputs",
       "The bytes of an input (signed URL, or Bearer <upload token>)", {"expires", "sig"}, "#bytes", 200,
       "UploadReceipt", "", {403, 404, 409, 413}},
      {"POST", "/v1/job-inputs/{iid}/complete", "completeJobInput", "inputs", "Mark an upload complete", {},
       "?CompleteInputRequest", 200, "JobInput", "", {400, 403, 404, 409}},
      {"GET", "/v1/nodes", "listNodes", "nodes", "The fleet with free GPUs (paged with limit and cursor)",
       {"limit", "cursor"}, "", 200, "NodeList", "", {400}},
      {"GET", "/v1/sim/clock", "getSimClock", "sim", "The engine clock (real or virtual)", {}, "", 200, "SimObject", "",
       {}},
      {"POST", "/v1/sim/clock/advance", "advanceSimClock", "sim", "Advance a virtual clock", {}, "SimObject", 200,
       "SimObject", "", {400, 409}},
      {"GET", "/v1/sim/faults", "listSimFaults", "sim", "Active fault rules", {}, "", 200, "SimObject", "", {}},
      {"POST", "/v1/sim/faults", "addSimFault", "sim", "Add a fault rule", {}, "SimObject", 201, "SimObject", "",
       {400}},
      {"DELETE", "/v1/sim/faults/{fid}", "deleteSimFault", "sim", "Remove a fault rule", {}, "", 200, "SimObject", "",
       {404}},
      {"POST", "/v1/sim/nodes/{id}/{op}", "simNodeOperation", "sim", "Drain, cordon, fail or bring back a fake node",
       {}, "?SimObject", 200, "SimObject", "", {400, 404}},
      {"POST", "/v1/sim/reset", "resetSim", "sim",
       "Cancel live jobs, clear faults, delete every job and input of every workspace (scope sim:reset)", {},
       "?SimObject", 200, "SimObject", "", {}},
      {"GET", "/v1/sim/digest", "getSimDigest", "sim", "Hash of the ordered event log", {}, "", 200, "SimObject", "",
       {}},
      {"GET", "/v1/sim/utilisation", "getSimUtilisation", "sim",
       "Queued jobs and GPUs in use per pool over the last hours, every 5 s of the engine clock", {}, "", 200,
       "SimObject", "", {}},
      {"GET", "/v1/nodes/{id}", "getNode", "nodes", "One node", {}, "", 200, "Node", "", {404}},
      {"POST", "/oauth/introspect", "introspectKey", "system",
       "What an API key may do (RFC 7662 shape); bearer: the --service-token", {}, "#introspect", 200,
       "Introspection", "", {400, 401}},
      {"GET", "/healthz", "healthz", "system", "Liveness", {}, "", 200, "Healthz", "", {}},
      {"GET", "/readyz", "readyz", "system", "Readiness (503 with the failing part)", {}, "", 200, "Ready", "", {503}},
      {"GET", "/v1/health", "health", "system", "Health details", {}, "", 200, "Health", "", {}},
      {"GET", "/metrics", "metrics", "system", "Prometheus metrics (text format 0.0.4)", {}, "", 200, "", "", {},
       Body::text},
      {"GET", "/openapi.json", "openapi", "system", "This document", {}, "", 200, "", "", {}},
      {"GET", "/", "dashboard", "dashboard", "The dashboard page", {}, "", 200, "", "", {}, Body::html},
      {"GET", "/ui/{path}", "dashboardFile", "dashboard", "Dashboard files", {}, "", 200, "", "", {404}, Body::html},
  };
  return k_operations;
}

using Json = nlohmann::json;

Json schema_ref(const std::string& schema) { return Json{{"$ref", "#/components/schemas/" + schema}}; }

Json envelope(const std::string& schema) {
  return Json{{"type", "object"},
              {"required", {"ok", "data"}},
              {"properties", {{"ok", {{"const", true}}}, {"data", schema_ref(schema)}}}};
}

std::vector<std::string> path_params(const std::string& path) {
  std::vector<std::string> out;
  for (std::size_t open = path.find('{'); open != std::string::npos; open = path.find('{', open + 1))
    out.push_back(path.substr(open + 1, path.find('}', open) - open - 1));
  return out;
}

Json parameters(const Operation& op, const std::string& path) {
  Json out = Json::array();
  for (const auto& name : path_params(path))
    out.push_back({{"name", name}, {"in", "path"}, {"required", true}, {"schema", {{"type", "string"}}}});
  for (const char* name : op.query)
    out.push_back({{"name", name}, {"in", "query"}, {"required", false}, {"schema", {{"type", "string"}}}});
  return out;
}

Json success_content(const Operation& op, bool mcp) {
  switch (op.body) {
    case Body::sse: return {{"text/event-stream", {{"schema", {{"type", "string"}}}}}};
    case Body::bytes: return {{"application/octet-stream", {{"schema", {{"type", "string"}, {"contentMediaType", "application/octet-stream"}}}}}};
    case Body::text: return {{"text/plain", {{"schema", {{"type", "string"}}}}}};
    case Body::html: return {{"text/html", {{"schema", {{"type", "string"}}}}}};
    case Body::json: break;
  }
  if (std::string(op.response).empty()) return {{"application/json", {{"schema", {{"type", "object"}}}}}};
  return {{"application/json", {{"schema", mcp ? envelope(op.mcp_response) : schema_ref(op.response)}}}};
}

// A submit's 200: the first job again (Idempotency-Key), or with
// ?dry_run=1 the plan (the estimate body plus dry_run: true).
Json dry_run_or_replay(bool mcp) {
  Json either = {{"anyOf", {schema_ref(mcp ? "JobMcp" : "Job"), schema_ref(mcp ? "EstimateMcp" : "Estimate")}}};
  if (mcp)
    either = {{"type", "object"}, {"required", {"ok", "data"}}, {"properties", {{"ok", {{"const", true}}}, {"data", either}}}};
  return {{"description", "The job an Idempotency-Key already created, or the plan of a dry run"},
          {"content", {{"application/json", {{"schema", either}}}}}};
}

Json responses(const Operation& op, bool mcp) {
  Json out = Json::object();
  out[std::to_string(op.status)] = {{"description", "Success"}, {"content", success_content(op, mcp)}};
  if (op.status == 202) out["200"] = dry_run_or_replay(mcp);
  for (int status : op.errors) out[std::to_string(status)] = {{"$ref", "#/components/responses/Error"}};
  // Any route refuses a body over --max-body, and refuses work while draining;
  // the connection front answers a head that is too slow, long or large.
  auto error = Json{{"$ref", "#/components/responses/Error"}};
  for (const char* status : {"408", "413", "414", "431"}) out[status] = error;
  std::string request = op.request, method = op.method;
  bool json_body = !request.empty() && request != "#bytes";
  if (json_body) out["415"] = error;  // a body that is not application/json
  if (method != "GET" && method != "HEAD") out["403"] = error;  // a page of another origin
  if (op.body == Body::sse) out["429"] = error;  // over --max-streams or --max-streams-per-key
  if (std::string(op.path) != "/healthz") out["503"] = {{"$ref", "#/components/responses/Error"}};
  out["500"] = {{"$ref", "#/components/responses/Error"}};
  return out;
}

// The access column of the route table, as OpenAPI security requirements.
const Access& access_of(const Operation& op) {
  static const Access k_open{};
  for (const auto& spec : route_specs())
    if (spec.method == op.method && spec.pattern == op.path) return spec.access;
  return k_open;
}

Json security(const Access& access) {
  switch (access.kind) {
    case AccessKind::scopes:
    case AccessKind::scopes_or_token: {
      Json alternatives = Json::array();
      for (auto scope : access.any_of) alternatives.push_back({{"bearer", {std::string(scope)}}});
      // {}: no key at all is an alternative too (the upload token in the body proves the right).
      if (access.kind == AccessKind::scopes_or_token) alternatives.push_back(Json::object());
      return alternatives;
    }
    case AccessKind::service: return Json::array({{{"serviceToken", Json::array()}}});
    default: return Json::array();
  }
}

Json request_body(const Operation& op) {
  std::string schema = op.request;
  if (schema == "#introspect") {
    Json token = {{"type", "object"}, {"required", {"token"}}, {"properties", {{"token", {{"type", "string"}}}}}};
    return {{"required", true},
            {"content", {{"application/x-www-form-urlencoded", {{"schema", token}}}, {"application/json", {{"schema", token}}}}}};
  }
  if (schema == "#bytes")
    return {{"required", true},
            {"content", {{"application/octet-stream", {{"schema", {{"type", "string"}, {"contentMediaType", "application/octet-stream"}}}}}}}};
  bool optional = schema.front() == '?';
  if (optional) schema.erase(0, 1);
  return {{"required", !optional}, {"content", {{"application/json", {{"schema", schema_ref(schema)}}}}}};
}

Json operation(const Operation& op, const std::string& path, bool mcp) {
  Json out = {{"operationId", mcp ? std::string("mcp_") + op.id : std::string(op.id)},
              {"summary", op.summary},
              {"tags", {mcp ? std::string("mcp") : std::string(op.tag)}},
              {"responses", responses(op, mcp)}};
  const Access& access = access_of(op);
  out["security"] = security(access);
  if (access.kind != AccessKind::open && access.kind != AccessKind::signature)
    for (const char* status : {"401", "403"}) out["responses"][status] = {{"$ref", "#/components/responses/Error"}};
  Json params = parameters(op, path);
  if (!params.empty()) out["parameters"] = params;
  if (std::string(op.request).size()) out["requestBody"] = request_body(op);
  if (std::string(op.path) == "/v1/jobs" && std::string(op.method) == "POST")
    out["parameters"].push_back({{"name", "Idempotency-Key"}, {"in", "header"}, {"required", false},
                                 {"schema", {{"type", "string"}}}});
  return out;
}

std::string lower(std::string text) {
  for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

Json build_paths() {
  Json paths = Json::object();
  for (const auto& op : operations()) {
    paths[op.path][lower(op.method)] = operation(op, op.path, false);
    if (std::string(op.mcp_response).empty()) continue;
    std::string mcp_path = std::string(k_mcp_prefix) + std::string(op.path).substr(k_plain_prefix.size());
    paths[mcp_path][lower(op.method)] = operation(op, mcp_path, true);
  }
  return paths;
}

Json build_document() {
  Json tags = Json::array();
  for (const char* tag : {"jobs", "logs", "events", "artifacts", "inputs", "nodes", "sim", "system", "dashboard", "mcp"})
    tags.push_back({{"name", tag}, {"description", std::string("jgrid-local ") + tag + " routes"}});
  return Json{
      {"openapi", "3.1.0"},
      {"info",
       {{"title", "jgrid-local job API"},
        {"version", JGRID_VERSION},
        {"summary", "The Jungle Grid job API served on the local machine"},
        {"description", "Plain routes return the payload; /v1/mcp/jobs… routes return {\"ok\": true, \"data\": payload}. "
                        "Every error is {\"ok\": false, \"error\": {code, message, details}}."},
        {"license", {{"name", "Apache-2.0"}, {"identifier", "Apache-2.0"}}}}},
      {"servers", Json::array({{{"url", "http://127.0.0.1:8420"}, {"description", "jgrid-local serve (default port)"}}})},
      {"security", Json::array({Json::object(), {{"bearer", Json::array()}}})},
      {"tags", tags},
      {"paths", build_paths()},
      {"components",
       {{"schemas", openapi_schemas()},
        {"securitySchemes",
         {{"bearer", {{"type", "http"}, {"scheme", "bearer"},
                      {"description", "An API key (--auth keys); any key, or none, while auth is off (the default). "
                                      "Each operation lists the scopes that admit it: any one suffices."}}},
          {"serviceToken", {{"type", "http"}, {"scheme", "bearer"},
                            {"description", "The service token of the server: --service-token, --service-token-file or "
                                            "JGRID_SERVICE_TOKEN (token introspection only)"}}}}},
        {"responses",
         {{"Error", {{"description", "An error envelope"},
                     {"content", {{"application/json", {{"schema", schema_ref("Error")}}}}}}}}}}}};
}

}  // namespace

const nlohmann::json& openapi_document_json() {
  static const Json k_document = build_document();
  return k_document;
}

Result<Reply> openapi_document(const Context&, const Call&) {
  static const std::string k_body = openapi_document_json().dump(2);
  Reply reply;
  reply.kind = Reply::Kind::bytes;
  reply.content_type = "application/json; charset=utf-8";
  reply.bytes = k_body;
  reply.headers.emplace_back("Cache-Control", "no-cache");
  return reply;
}

}  // namespace jgrid::api
