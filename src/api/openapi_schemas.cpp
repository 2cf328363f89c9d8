// components.schemas of /openapi.json (JSON Schema 2020-12, as OpenAPI 3.1
// uses it). Typed fields are never null except those docs/api.md §1.1 marks
// `|null`; objects stay open (clients ignore fields they do not know).
#include "api/openapi.hpp"

namespace jgrid::api {
namespace {

constexpr const char* k_schemas = R"json({
  "Error": {
    "type": "object", "required": ["ok", "error"],
    "properties": {
      "ok": {"const": false},
      "code": {"type": "string", "description": "a copy of error.code"},
      "message": {"type": "string", "description": "a copy of error.message"},
      "error": {"type": "object", "required": ["code", "message"],
        "properties": {"code": {"type": "string"}, "message": {"type": "string"}, "details": {"type": "object"}}}
    }
  },
  "StringMap": {"type": "object", "additionalProperties": {"type": "string"}},
  "CostRange": {"type": "object", "required": ["min", "max"],
    "properties": {"min": {"type": "number"}, "max": {"type": "number"}}},
  "Check": {
    "type": "object", "required": ["rule", "status", "message"],
    "properties": {"rule": {"type": "string"}, "status": {"enum": ["pass", "warn", "block"]},
      "field": {"type": "string"}, "message": {"type": "string"}, "fix": {"type": "string"}}
  },
  "JobRequest": {
    "type": "object", "description": "Submit and estimate body (docs/api.md §2.2). Unknown fields are ignored.",
    "properties": {
      "name": {"type": "string", "maxLength": 200},
      "workload_type": {"enum": ["inference", "training", "fine-tuning", "fine_tuning", "batch"]},
      "image": {"type": "string"},
      "command": {"oneOf": [{"type": "array", "items": {"type": "string"}}, {"type": "string"}]},
      "args": {"type": "array", "items": {"type": "string"}},
      "environment": {"$ref": "#/components/schemas/StringMap"},
      "env": {"$ref": "#/components/schemas/StringMap"},
      "gpu_vendor": {"type": "string", "description": "amd, nvidia or any (case-insensitive)"},
      "runtime": {"type": "string", "description": "rocm, cuda or auto"},
      "framework": {"type": "string"},
      "labels": {"$ref": "#/components/schemas/StringMap"},
      "gpu_count": {"type": "integer", "minimum": 1},
      "resources": {"type": "object"},
      "gpu_type": {"type": "string"}, "gpu_class": {"type": "string"},
      "min_vram_gb": {"type": "number"}, "model_size_gb": {"type": "number"}, "disk_gb": {"type": "number"},
      "constraints": {"type": "object"},
      "optimize_for": {"enum": ["balanced", "cost", "speed"]},
      "routing_mode": {"enum": ["balanced", "cost", "speed"]},
      "latency_priority": {"enum": ["low", "balanced", "high"]},
      "cost_priority": {"enum": ["low", "balanced", "high"]},
      "priority": {"enum": ["low", "balanced", "high"]},
      "timeout_seconds": {"type": "number", "exclusiveMinimum": 0},
      "input_files": {"type": "array"}, "script_files": {"type": "array"}, "script_file": {"type": "string"},
      "expected_artifacts": {"type": "array", "items": {"type": "string"}},
      "metadata": {"type": "object"},
      "webhook_url": {"type": "string", "format": "uri",
        "description": "Callback URL (docs/api.md §5); same as callback.url"},
      "callback_url": {"type": "string", "format": "uri",
        "description": "http(s) URL POSTed once the job ends; not this server itself"},
      "callback_auth_token": {"type": "string",
        "description": "Sent as Authorization: Bearer and used as the HMAC key of X-JGrid-Signature"},
      "callback_metadata": {"type": "object", "description": "Echoed as `metadata` in the callback body"},
      "callback": {"oneOf": [{"type": "string", "format": "uri"}, {"type": "object", "properties": {
        "url": {"type": "string", "format": "uri"}, "auth_token": {"type": "string"},
        "metadata": {"type": "object"}}}]},
      "sim": {"type": "object", "description": "Fake-node behaviour of this job (docs/simulation.md)"}
    }
  },
  "JobBase": {
    "type": "object",
    "required": ["job_id", "id", "name", "status", "phase", "execution_phase", "workload_type",
                 "created_at", "submitted_at", "queued_at", "updated_at", "exit_code", "timed_out"],
    "properties": {
      "job_id": {"type": "string"}, "id": {"type": "string"}, "name": {"type": "string"},
      "status": {"$ref": "#/components/schemas/JobStatus"},
      "status_reason": {"type": "string"}, "status_message": {"type": "string"},
      "phase": {"$ref": "#/components/schemas/Phase"}, "execution_phase": {"$ref": "#/components/schemas/Phase"},
      "workload_type": {"type": "string"}, "image": {"type": "string"}, "image_digest": {"type": "string"},
      "command": {"type": "array", "items": {"type": "string"}},
      "environment_keys": {"type": "array", "items": {"type": "string"}},
      "gpu_vendor": {"type": "string"}, "runtime": {"type": "string"}, "framework": {"type": "string"},
      "gpu_count": {"type": "integer"}, "model_size_gb": {"type": "number"},
      "optimize_for": {"type": "string"}, "priority": {"type": "string"},
      "constraints": {"type": "object"}, "labels": {"type": "object"}, "metadata": {"type": "object"},
      "expected_artifacts": {"type": "array", "items": {"type": "string"}},
      "input_files": {"type": "array"}, "script_files": {"type": "array"},
      "timeout_seconds": {"type": "number"},
      "created_at": {"$ref": "#/components/schemas/Time"}, "submitted_at": {"$ref": "#/components/schemas/Time"},
      "queued_at": {"$ref": "#/components/schemas/Time"}, "updated_at": {"$ref": "#/components/schemas/Time"},
      "started_at": {"$ref": "#/components/schemas/Time"}, "completed_at": {"$ref": "#/components/schemas/Time"},
      "last_status_update": {"$ref": "#/components/schemas/Time"},
      "phase_started_at": {"$ref": "#/components/schemas/Time"},
      "phase_last_updated_at": {"$ref": "#/components/schemas/Time"},
      "wait_duration_seconds": {"type": "number"},
      "delayed_start": {"type": "boolean"},
      "delay_reason": {"type": "object", "required": ["code", "message"],
        "properties": {"code": {"type": "string"}, "message": {"type": "string"}}},
      "screening": {"type": "object", "properties": {
        "checks": {"type": "array", "items": {"$ref": "#/components/schemas/Check"}},
        "warnings": {"type": "array", "items": {"$ref": "#/components/schemas/Check"}}}},
      "scheduling": {"type": "object"},
      "assigned_node_id": {"type": "string"}, "provider": {"type": "string"}, "region": {"type": "string"},
      "gpu": {"type": "object", "properties": {"vendor": {"type": "string"}, "name": {"type": "string"},
        "runtime_version": {"type": "string"}, "count": {"type": "integer"}}},
      "hardware": {"type": "object"},
      "startup_diagnostics": {"type": "object", "properties": {
        "command_spawned": {"type": "boolean"}, "workload_logs_available": {"type": "boolean"},
        "inputs_prepared": {"type": "boolean"}, "scripts_prepared": {"type": "boolean"}}},
      "exit_code": {"type": ["integer", "null"]},
      "timed_out": {"type": "boolean"}, "attempts": {"type": "integer"},
      "failure": {"type": "object", "required": ["code", "summary"], "properties": {
        "code": {"enum": ["NONZERO_EXIT", "TIMED_OUT", "START_FAILED", "NODE_LOST", "IMAGE_PULL_FAILED", "OOM", "INTERNAL", "CANCELLED_BY_SCHEDULER"]},
        "summary": {"type": "string"}}},
      "diagnosis": {"type": "object", "description": "Why a failed run failed and what to change (docs/rocm.md §5); absent when the grid cannot tell",
        "required": ["code", "message", "fix", "evidence"], "properties": {
        "code": {"enum": ["GPU_DEVICE_PERMISSION", "CUDA_ON_AMD", "ROCM_USERSPACE_MISSING", "GPU_ISA_UNSUPPORTED",
                          "HIP_OUT_OF_MEMORY", "NO_GPU_VISIBLE", "OOM_KILLED", "TIMEOUT"]},
        "message": {"type": "string"}, "fix": {"type": "string"},
        "evidence": {"type": ["object", "null"], "properties": {"stream": {"enum": ["stdout", "stderr"]},
          "line": {"type": "integer"}, "text": {"type": "string"}}}}},
      "artifacts_ready": {"type": "boolean"},
      "actual_cost_usd": {"type": ["number", "null"]},
      "billing": {"type": "object", "properties": {"status": {"type": "string"},
        "actual_cost_usd": {"type": ["number", "null"]}}},
      "account_billing": {"type": "object", "required": ["lifetime_total_spent_usd"],
        "properties": {"lifetime_total_spent_usd": {"type": "number"}}},
      "callback": {"type": "object", "description": "Delivery of the job's callback (docs/api.md §5); absent without one",
        "properties": {"url": {"type": "string"}, "status": {"enum": ["pending", "delivered", "failed"]},
        "attempts": {"type": "integer", "minimum": 0, "maximum": 8}, "last_error": {"type": "string"}}}
    }
  },
  "Job": {"allOf": [{"$ref": "#/components/schemas/JobBase"},
    {"properties": {"estimated_cost_usd": {"type": "number"}}}]},
  "JobMcp": {"allOf": [{"$ref": "#/components/schemas/JobBase"},
    {"properties": {"estimated_cost_usd": {"$ref": "#/components/schemas/CostRange"}}}]},
  "JobStatus": {"enum": ["pending", "queued", "assigned", "starting", "running", "completed", "failed", "rejected", "cancelled"]},
  "Phase": {"enum": ["queued", "scheduling", "provisioning", "runtime_preparation", "workload_execution", "finalizing", "done"]},
  "Time": {"type": "string", "format": "date-time"},
  "JobListBase": {
    "type": "object", "required": ["jobs", "limit", "next_cursor", "has_more"],
    "properties": {"limit": {"type": "integer"}, "next_cursor": {"type": ["string", "null"]},
      "has_more": {"type": "boolean"}}
  },
  "JobList": {"allOf": [{"$ref": "#/components/schemas/JobListBase"},
    {"properties": {"jobs": {"type": "array", "items": {"$ref": "#/components/schemas/JobListItem"}}}}]},
  "JobListMcp": {"allOf": [{"$ref": "#/components/schemas/JobListBase"},
    {"properties": {"jobs": {"type": "array", "items": {"$ref": "#/components/schemas/JobListItem"}}}}]},
  "JobListItem": {
    "type": "object",
    "required": ["job_id", "id", "name", "status", "workload_type", "gpu_vendor", "created_at", "updated_at", "metadata"],
    "properties": {"job_id": {"type": "string"}, "id": {"type": "string"}, "name": {"type": "string"},
      "status": {"$ref": "#/components/schemas/JobStatus"}, "workload_type": {"type": "string"},
      "gpu_vendor": {"type": "string"}, "created_at": {"$ref": "#/components/schemas/Time"},
      "updated_at": {"$ref": "#/components/schemas/Time"}, "metadata": {"type": "object"},
      "exit_code": {"type": ["integer", "null"]}, "actual_cost_usd": {"type": ["number", "null"]}}
  },
  "EstimateBase": {
    "type": "object",
    "required": ["available", "can_submit", "screening", "classification", "routing", "capacity",
                 "capacity_status", "candidate_count", "confidence", "unavailable_reason", "unavailable_code", "warnings"],
    "properties": {
      "available": {"type": "boolean"}, "can_submit": {"type": "boolean"},
      "screening": {"type": "object", "required": ["can_submit", "blocked_checks", "checks"], "properties": {
        "can_submit": {"type": "boolean"}, "blocked_checks": {"type": "array", "items": {"type": "string"}},
        "checks": {"type": "array", "items": {"$ref": "#/components/schemas/Check"}},
        "warnings": {"type": "array"}, "fixes": {"type": "array"}}},
      "classification": {"type": "object", "properties": {"workload_type": {"type": "string"},
        "requires_gpu": {"type": "boolean"}, "gpu_vendor": {"type": "string"}, "runtime": {"type": "string"},
        "framework": {"type": "string"}, "confidence": {"type": "string"}, "reasons": {"type": "array"},
        "unknown_stack": {"type": "boolean"},
        "image_source": {"type": "string", "description": "What screening read about the image: catalog, local, registry, or name only (with why)"}}},
      "routing": {"type": "object", "properties": {
        "route_status": {"enum": ["available", "queued", "unavailable"]},
        "selected_accelerator": {"type": "string"}, "selected_node_id": {"type": "string"},
        "selected_route_source": {"type": "string"}, "selection_reason": {"type": "string"},
        "candidates": {"type": "array", "items": {"type": "object", "required": ["node_id", "feasible"],
          "properties": {"node_id": {"type": "string"}, "gpu_model": {"type": "string"}, "score": {"type": "number"},
            "feasible": {"type": "boolean"}, "reasons": {"type": "array"}}}}}},
      "capacity": {"type": "object", "properties": {"live_capacity_available": {"type": "boolean"},
        "live_candidate_count": {"type": "integer"}, "managed_capacity_available": {"type": ["boolean", "null"]},
        "managed_profile_count": {"type": "integer"}, "estimate_source": {"type": "string"}}},
      "capacity_status": {"type": "object", "properties": {
        "availability": {"enum": ["available", "limited", "unavailable"]},
        "immediate_capacity_confirmed": {"type": "boolean"}}},
      "estimated_cost_min_usd": {"type": "number"}, "estimated_cost_max_usd": {"type": "number"},
      "estimated_hourly_rate_usd": {"type": "number"},
      "estimated_runtime_min_minutes": {"type": "number"}, "estimated_runtime_max_minutes": {"type": "number"},
      "estimated_queue_wait_seconds": {"type": "number"},
      "likely_gpu_type": {"type": "string"}, "likely_gpu_family": {"type": "string"},
      "routed_gpu_tier": {"type": "string"}, "candidate_count": {"type": "integer"},
      "constraints_relaxed": {"type": "array"}, "constraints_relaxed_applied": {"type": "boolean"},
      "confidence": {"type": "string"}, "explanation": {"type": "string"},
      "unavailable_reason": {"type": ["string", "null"]}, "unavailable_code": {"type": ["string", "null"]},
      "warnings": {"type": "array"}
    }
  },
  "Estimate": {"allOf": [{"$ref": "#/components/schemas/EstimateBase"},
    {"properties": {"estimated_cost_usd": {"type": "number"}}}]},
  "EstimateMcp": {"allOf": [{"$ref": "#/components/schemas/EstimateBase"},
    {"properties": {"estimated_cost_usd": {"$ref": "#/components/schemas/CostRange"}}}]},
  "Runtime": {
    "type": "object", "required": ["job_id", "exit_code", "timed_out", "stdout_tail", "stderr_tail",
                                   "runtime_availability", "diagnostics"],
    "properties": {"job_id": {"type": "string"}, "status": {"$ref": "#/components/schemas/JobStatus"},
      "exit_code": {"type": ["integer", "null"]}, "timed_out": {"type": "boolean"},
      "stdout_tail": {"type": "string"}, "stderr_tail": {"type": "string"},
      "runtime_availability": {"type": "object", "additionalProperties": {"type": "object",
        "required": ["state", "reason"], "properties": {
          "state": {"enum": ["available", "delayed", "partial_loss", "truncated", "unsupported"]},
          "reason": {"type": "string"}}}},
      "diagnostics": {"type": "array"}}
  },
  "CancelRequest": {"type": "object", "properties": {"reason": {"type": "string"}}},
  "CancelResult": {
    "type": "object", "required": ["job_id", "id", "status", "cancelled", "message"],
    "properties": {"job_id": {"type": "string"}, "id": {"type": "string"},
      "status": {"$ref": "#/components/schemas/JobStatus"}, "cancelled": {"const": true},
      "message": {"type": "string"}, "status_reason": {"type": "string"}}
  },
  "LogEntry": {
    "type": "object",
    "required": ["entry_id", "sequence", "stream", "category", "source", "level", "message", "truncated", "created_at", "timestamp"],
    "properties": {"entry_id": {"type": "string"}, "sequence": {"type": "integer"}, "stream": {"type": "string"},
      "category": {"enum": ["workload_stdout", "workload_stderr", "platform"]}, "source": {"type": "string"},
      "level": {"type": "string"}, "message": {"type": "string"}, "truncated": {"type": "boolean"},
      "created_at": {"$ref": "#/components/schemas/Time"}, "timestamp": {"$ref": "#/components/schemas/Time"}}
  },
  "LogPage": {
    "type": "object", "required": ["job_id", "items", "next_cursor", "has_more", "failure_highlight", "usage_hint"],
    "properties": {"job_id": {"type": "string"},
      "items": {"type": "array", "items": {"$ref": "#/components/schemas/LogEntry"}},
      "next_cursor": {"type": ["string", "null"]}, "has_more": {"type": "boolean"},
      "failure_highlight": {"type": "string"}, "usage_hint": {"type": "string"}}
  },
  "Event": {
    "type": "object", "required": ["id", "sequence", "type", "title", "message", "source", "level", "created_at"],
    "properties": {"id": {"type": "string"}, "sequence": {"type": "integer"}, "type": {"type": "string"},
      "phase": {"type": "string"}, "title": {"type": "string"}, "message": {"type": "string"},
      "source": {"enum": ["api", "screener", "router", "scheduler", "executor", "node", "callback"]},
      "level": {"enum": ["info", "warning", "error"]}, "created_at": {"$ref": "#/components/schemas/Time"},
      "data": {"type": "object"}, "job_id": {"type": "string"}}
  },
  "EventPage": {
    "type": "object", "required": ["job_id", "status", "phase", "generated_at", "items", "next_cursor", "has_more"],
    "properties": {"job_id": {"type": "string"}, "status": {"$ref": "#/components/schemas/JobStatus"},
      "phase": {"$ref": "#/components/schemas/Phase"}, "generated_at": {"$ref": "#/components/schemas/Time"},
      "items": {"type": "array", "items": {"$ref": "#/components/schemas/Event"}},
      "next_cursor": {"type": ["string", "null"]}, "has_more": {"type": "boolean"}}
  },
  "Artifact": {
    "type": "object",
    "required": ["artifact_id", "id", "job_id", "filename", "name", "path", "content_type", "mime_type",
                 "size_bytes", "sha256", "status", "ready", "created_at", "uploaded_at"],
    "properties": {"artifact_id": {"type": "string"}, "id": {"type": "string"}, "job_id": {"type": "string"},
      "filename": {"type": "string"}, "name": {"type": "string"}, "path": {"type": "string"},
      "content_type": {"type": "string"}, "mime_type": {"type": "string"},
      "size_bytes": {"type": ["integer", "null"]}, "sha256": {"type": "string"},
      "status": {"const": "ready"}, "ready": {"const": true},
      "created_at": {"$ref": "#/components/schemas/Time"}, "uploaded_at": {"$ref": "#/components/schemas/Time"}}
  },
  "ArtifactList": {
    "type": "object", "required": ["job_id", "artifacts", "expected"],
    "properties": {"job_id": {"type": "string"},
      "artifacts": {"type": "array", "items": {"$ref": "#/components/schemas/Artifact"}},
      "expected": {"type": "array", "items": {"type": "object", "required": ["path", "present"],
        "properties": {"path": {"type": "string"}, "present": {"type": "boolean"}}}}}
  },
  "DownloadLink": {
    "type": "object",
    "required": ["job_id", "artifact_id", "artifact_name", "artifact", "url", "download_url", "expires_at", "ready", "size_bytes", "mime_type"],
    "properties": {"job_id": {"type": "string"}, "artifact_id": {"type": "string"}, "artifact_name": {"type": "string"},
      "artifact": {"$ref": "#/components/schemas/Artifact"}, "url": {"type": "string", "format": "uri"},
      "download_url": {"type": "string", "format": "uri"}, "expires_at": {"$ref": "#/components/schemas/Time"},
      "ready": {"type": "boolean"}, "size_bytes": {"type": ["integer", "null"]}, "mime_type": {"type": "string"}}
  },
  "CreateInputRequest": {
    "type": "object", "required": ["filename"],
    "properties": {"filename": {"type": "string"}, "content_type": {"type": "string"},
      "kind": {"enum": ["input", "script"]}}
  },
  "UploadTicket": {
    "type": "object", "required": ["upload"],
    "properties": {"upload": {"type": "object",
      "required": ["input_id", "filename", "kind", "method", "upload_url", "token", "expires_at", "complete_url", "headers"],
      "properties": {"input_id": {"type": "string"}, "filename": {"type": "string"}, "kind": {"enum": ["input", "script"]},
        "method": {"const": "PUT"}, "upload_url": {"type": "string", "format": "uri"}, "token": {"type": "string"},
        "expires_at": {"$ref": "#/components/schemas/Time"}, "complete_url": {"type": "string", "format": "uri"},
        "headers": {"$ref": "#/components/schemas/StringMap"}}}}
  },
  "UploadReceipt": {"type": "object", "properties": {"input_id": {"type": "string"},
    "size_bytes": {"type": "integer"}, "sha256": {"type": "string"}}},
  "CompleteInputRequest": {
    "type": "object",
    "properties": {"token": {"type": "string"}, "filename": {"type": "string"}, "content_type": {"type": "string"},
      "size_bytes": {"type": "integer", "minimum": 0}, "etag": {"type": "string"}}
  },
  "JobInput": {
    "type": "object", "required": ["input_id", "status", "ready", "size_bytes", "sha256", "mount_path"],
    "properties": {"input_id": {"type": "string"}, "filename": {"type": "string"}, "content_type": {"type": "string"},
      "kind": {"enum": ["input", "script"]}, "status": {"enum": ["pending", "ready"]}, "ready": {"type": "boolean"},
      "size_bytes": {"type": ["integer", "null"]}, "sha256": {"type": "string"}, "mount_path": {"type": "string"},
      "created_at": {"$ref": "#/components/schemas/Time"}}
  },
  "InputList": {
    "type": "object", "required": ["inputs", "next_cursor", "has_more"],
    "properties": {"inputs": {"type": "array", "items": {"$ref": "#/components/schemas/JobInput"}},
      "next_cursor": {"type": ["string", "null"]}, "has_more": {"type": "boolean"}}
  },
  "Node": {
    "type": "object",
    "required": ["node_id", "name", "source", "status", "gpu_vendor", "gpu_model", "gpu_count", "gpus_free"],
    "properties": {"node_id": {"type": "string"}, "name": {"type": "string"},
      "source": {"enum": ["local", "simulated", "slurm"]}, "status": {"enum": ["online", "busy", "draining", "offline"]},
      "gpu_vendor": {"type": "string"}, "runtime": {"type": "string"}, "runtime_version": {"type": "string"},
      "gpu_model": {"type": "string"}, "gpu_family": {"type": "string"}, "gpu_class": {"type": "string"},
      "gpu_count": {"type": "integer"}, "gpus_free": {"type": "integer"}, "vram_gb": {"type": "number"},
      "region": {"type": "string"}, "price_per_gpu_hour": {"type": "number"}, "labels": {"type": "object"},
      "running_jobs": {"type": "integer"}, "last_heartbeat_at": {"$ref": "#/components/schemas/Time"}}
  },
  "SimObject": {"type": "object", "description": "see the simulated fleet section of the README"},
  "NodeList": {"type": "object", "required": ["nodes"],
    "properties": {"nodes": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}}}},
  "Healthz": {"type": "object", "required": ["ok", "service", "version"],
    "properties": {"ok": {"const": true}, "service": {"const": "jgrid-local"}, "version": {"type": "string"}}},
  "Introspection": {"type": "object", "required": ["active"],
    "properties": {"active": {"type": "boolean"}, "iss": {"type": "string"}, "aud": {"type": "string"},
      "sub": {"type": "string"}, "workspace_id": {"type": "string"}, "scope": {"type": "string"},
      "exp": {"type": "integer"}}},
  "Ready": {"type": "object", "required": ["ok"], "properties": {"ok": {"const": true}}},
  "Health": {"type": "object", "required": ["ok", "service", "version", "ready"],
    "properties": {"ok": {"type": "boolean"}, "service": {"type": "string"}, "version": {"type": "string"},
      "ready": {"type": "boolean"}, "draining": {"type": "boolean"}, "time": {"$ref": "#/components/schemas/Time"},
      "uptime_seconds": {"type": "integer"}, "fleet": {"type": "object"},
      "store": {"type": "object", "required": ["ok"], "properties": {"ok": {"type": "boolean"},
        "jobs": {"type": "integer"}, "error": {"type": "string"}}}}}
})json";

}  // namespace

nlohmann::json openapi_schemas() {
  static const nlohmann::json k_parsed = nlohmann::json::parse(k_schemas);
  return k_parsed;
}

}  // namespace jgrid::api
