#pragma once
// Options of `jgrid-local serve`, their registration on the command line and
// their validation. Validation happens before anything starts, so a bad
// option never leaves a half-created data dir or a bound port behind.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "jgrid/util/result.hpp"

namespace jgrid::cli {

struct ServeOptions {
  std::string host = "127.0.0.1";
  int port = 8420;
  std::string data_dir = "./jgrid-data";
  std::string db;                  // "" : <data-dir>/jgrid.db; ":memory:" : nothing on disk
  bool ephemeral = false;          // temporary data dir, removed at exit
  std::vector<std::string> fleet;  // empty: built-in fleet; {"none"}: empty fleet; else files, merged
  std::string public_url;
  std::string base_path;
  std::string log_level = "info";
  std::string log_format = "text";
  int max_attempts = 2;
  double delay_threshold_s = 300;
  std::int64_t max_body = 1 << 20;
  std::int64_t max_upload = 2LL << 30;
  double upload_ttl_s = 3600;
  std::int64_t max_log_bytes = 64LL << 20;
  double time_scale = 1.0;
  std::string clock;               // "" : the fleet's clock.mode; else real | virtual
  std::optional<std::uint64_t> seed;  // overrides the fleet's seed
  std::string web_dir;
  bool synchronous_full = true;
  std::int64_t callback_backoff_base_ms = 1000;  // wait before the 2nd callback attempt (for tests)
  // Auth (docs/api.md §4).
  std::string auth = "off";        // off | keys
  std::string keys_file;
  // TLS (README "TLS").
  std::string tls_cert;            // PEM certificate chain: serve HTTPS
  std::string tls_key;             // its PEM private key
  std::string ca_file;             // CA bundle for outgoing https (callbacks, registries); "" : system store
  std::string service_token;       // bearer of POST /oauth/introspect (see resolve_service_token)
  std::string service_token_file;  // a file holding it (ps shows command lines, not files)
  // Limits (README "Limits").
  int max_json_depth = 64;
  int max_env_keys = 256;
  int max_labels = 64;
  int max_stream_subscribers = 64;
  int max_connections = 1024;
  int max_streams = 256;
  int max_streams_per_key = 32;
  int max_header_bytes = 65536;
  int header_timeout_s = 10;
  int max_waiting_connections = 8192;
  std::vector<std::string> allowed_origins;
  int read_timeout_s = 10;
  std::int64_t min_free_disk = 256LL << 20;
  // The local node (docs/rocm.md §4).
  std::string engine = "auto";           // auto | podman | docker
  std::vector<std::string> engine_args;  // one argv element each, right after `run`
  std::string local = "auto";            // auto | on | off
  bool local_gpu_optional = false;
  int local_gpu_slots = 1;
  std::string sysfs_root = "/sys";
  std::string dev_root = "/dev";
  // A Slurm cluster (docs/slurm.md); the fleet file's `slurm` section gives the rest.
  bool slurm = false;
  std::vector<std::string> slurm_partitions;   // empty: the fleet section's, else every partition
  std::string slurm_engine;                    // "": the fleet section's, else podman
  std::vector<std::string> slurm_engine_args;  // added to the fleet section's
  bool slurm_gpu_optional = false;
  bool slurm_skip_data_dir_check = false;
  // What screening reads about an image (README "What screening reads about an image").
  std::string registry_lookup = "auto";  // auto (on with a real clock) | on | off
  double registry_wait_s = 2;            // how long submit and estimate wait for a lookup
  std::vector<std::string> insecure_registries;  // host[:port] spoken to over plain HTTP
  std::int64_t registry_cache_ttl_s = 3600;      // how long a tag's digest is trusted
  double registry_timeout_s = 10;        // per registry request; then the lookup gives up
  std::string unknown_stack;             // "": the fleet's screening.unknown_stack; nvidia | any
};

// Adds every serve option to `command` with its help text and default.
void register_serve_options(CLI::App& command, ServeOptions& options);

// Auth and limit options (part of register_serve_options).
void register_guard_options(CLI::App& command, ServeOptions& options);

// The local node's options (part of register_serve_options).
void register_local_options(CLI::App& command, ServeOptions& options);

// The Slurm options (part of register_serve_options).
void register_slurm_options(CLI::App& command, ServeOptions& options);

// Image metadata and unknown-stack options (part of register_serve_options).
void register_screening_options(CLI::App& command, ServeOptions& options);

// Checks values CLI11 cannot (ranges, formats, combinations). Error
// INVALID_OPTION with one line naming the option and what was expected.
Status validate(const ServeOptions& options);

// The service token, from the first source given: --service-token, then
// --service-token-file (its first line, surrounding whitespace dropped),
// then `env_value` ($JGRID_SERVICE_TOKEN; null or "" : unset). "" when none
// is given. Error INVALID_OPTION naming the source: a file that cannot be
// read, or a token shorter than 16 characters.
Result<std::string> resolve_service_token(const ServeOptions& options, const char* env_value);

}  // namespace jgrid::cli
