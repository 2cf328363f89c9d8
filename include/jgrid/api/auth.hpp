#pragma once
// API keys and workspaces (docs/api.md §4). With auth off every request belongs
// to the workspace "local" and any bearer is accepted. With auth keys every
// route of the table names the scopes it accepts (src/api/routes.cpp) and a
// request is let through only with a known, unrevoked key holding one of them.
//
// Keys are secrets: nothing here logs or returns them (error messages name the
// key's position in the file, never its text).
#include <filesystem>
#include <string>
#include <vector>

#include "jgrid/util/result.hpp"

namespace jgrid::api {

struct ApiKey {
  std::string key;                  // "jg_…", the bearer token
  std::string workspace;            // non-empty
  std::vector<std::string> scopes;  // e.g. "jobs:read"
  bool revoked = false;
};

struct AuthOptions {
  bool keys_required = false;   // --auth keys
  std::vector<ApiKey> keys;     // --keys-file
  std::string service_token;    // bearer of POST /oauth/introspect; "" : introspection refused
};

// Reads and validates a keys file `{"keys": [{"key", "workspace", "scopes",
// "revoked"}]}`. Error INVALID_KEYS_FILE with one line naming the file and
// the field, e.g. "keys.json: keys[2].scopes: expected an array of strings".
Result<std::vector<ApiKey>> load_keys_file(const std::filesystem::path& path);

// Every scope a key may hold.
const std::vector<std::string>& known_scopes();

}  // namespace jgrid::api
