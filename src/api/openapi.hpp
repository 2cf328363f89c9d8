#pragma once
// The OpenAPI 3.1 document served at /openapi.json (docs/api.md §2.11): every
// route of the route table with its parameters, request body and response
// schemas, in both framings (plain, and {"ok": true, "data": …} under
// /v1/mcp/jobs…). Built once from the operation table in openapi.cpp; a
// test checks it against the registered routes both ways.
#include <nlohmann/json.hpp>

namespace jgrid::api {

// The whole document. Thread-safe (built once).
const nlohmann::json& openapi_document_json();

// components.schemas (openapi_schemas.cpp).
nlohmann::json openapi_schemas();

}  // namespace jgrid::api
