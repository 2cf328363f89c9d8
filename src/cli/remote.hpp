#pragma once
// What every client subcommand shares: where the server is (--url, then the
// environment), the API key, --json, and how a failure is printed.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "jgrid/api/client.hpp"
#include "jgrid/util/result.hpp"

namespace jgrid::cli {

using Json = nlohmann::json;

constexpr const char* k_default_url = "http://127.0.0.1:8420";

struct RemoteFlags {
  std::string url;      // "" : from the environment, else k_default_url
  std::string api_key;  // "" : from the environment, else none
  std::string ca_file;  // "" : $JGRID_CA_FILE, else the system store (https only)
  bool json = false;    // machine-readable output on stdout
};

// Adds --url, --api-key, --ca-file and --json to `command`.
void add_remote_flags(CLI::App* command, RemoteFlags& flags);

// --url, else JUNGLE_GRID_API, JUNGLE_GRID_API_URL, JUNGLEGRID_API_BASE
// (first set wins), else k_default_url.
std::string resolve_url(const RemoteFlags& flags);
// --api-key, else JUNGLE_GRID_API_KEY, JUNGLEGRID_API_KEY, else "".
std::string resolve_api_key(const RemoteFlags& flags);

// A client for the resolved target. Error INVALID_URL.
Result<api::Client> connect(const RemoteFlags& flags);

// Prints "jgrid-local: CODE: message" (and the fixes of a screening refusal)
// on stderr, or the error envelope on stdout with --json. Returns 1.
int report(const Error& error, bool json);

// Prints `value` as one line of JSON on stdout. Returns 0.
int print_json(const Json& value);

// A job request from a file, or stdin for "-". Error INVALID_REQUEST
// (unreadable, not JSON, not an object) naming the file.
Result<Json> read_request(const std::string& path);

// `id` percent-encoded for use as one path segment.
std::string path_segment(const std::string& id);

// A JSON field as display text: strings bare, null/missing as "-".
std::string text_of(const Json& object, const std::string& key);

}  // namespace jgrid::cli
