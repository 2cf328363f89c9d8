#include "serve_options.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "jgrid/util/files.hpp"
#include "jgrid/util/log.hpp"
#include "jgrid/util/strings.hpp"

namespace jgrid::cli {
namespace {

Error invalid(const std::string& option, const std::string& expected) {
  return make_error("INVALID_OPTION", option + ": expected " + expected);
}

bool is_dir(const std::string& path) {
  std::error_code error;
  return std::filesystem::is_directory(path, error);
}

Status validate_local(const ServeOptions& o) {
  if (o.engine != "auto" && o.engine != "podman" && o.engine != "docker")
    return invalid("--engine", "auto, podman or docker, got '" + o.engine + "'");
  if (o.local != "auto" && o.local != "on" && o.local != "off")
    return invalid("--local", "auto, on or off, got '" + o.local + "'");
  if (o.local_gpu_slots < 1 || o.local_gpu_slots > 64)
    return invalid("--local-gpu-slots", "an integer 1..64, got " + std::to_string(o.local_gpu_slots));
  for (const auto& arg : o.engine_args)
    if (arg.empty()) return invalid("--engine-arg", "a non-empty argument");
  if (!is_dir(o.sysfs_root)) return invalid("--sysfs-root", "an existing directory, got '" + o.sysfs_root + "'");
  if (!is_dir(o.dev_root)) return invalid("--dev-root", "an existing directory, got '" + o.dev_root + "'");
  return Ok{};
}

bool is_http_url(const std::string& text);

Status validate_guards(const ServeOptions& o) {
  if (o.auth != "off" && o.auth != "keys") return invalid("--auth", "off or keys, got '" + o.auth + "'");
  if (o.auth == "keys" && o.keys_file.empty()) return invalid("--keys-file", "a keys file together with --auth keys");
  if (o.auth == "off" && !o.keys_file.empty()) return invalid("--keys-file", "only together with --auth keys");
  if (o.max_json_depth < 2 || o.max_json_depth > 512) return invalid("--max-json-depth", "an integer 2..512");
  if (o.max_env_keys < 0 || o.max_env_keys > 256) return invalid("--max-env-keys", "an integer 0..256");
  if (o.max_labels < 0 || o.max_labels > 64) return invalid("--max-labels", "an integer 0..64");
  if (o.max_stream_subscribers < 1 || o.max_stream_subscribers > 65536)
    return invalid("--max-stream-subscribers", "an integer 1..65536");
  if (o.max_connections < 8 || o.max_connections > 65536) return invalid("--max-connections", "an integer 8..65536");
  if (o.max_streams < 1 || o.max_streams > o.max_connections / 2)
    return invalid("--max-streams", "an integer 1..half of --max-connections (" +
                                        std::to_string(o.max_connections / 2) + "): streams must leave workers for the API");
  if (o.max_streams_per_key < 1 || o.max_streams_per_key > o.max_streams)
    return invalid("--max-streams-per-key", "an integer 1..--max-streams (" + std::to_string(o.max_streams) + ")");
  if (o.max_header_bytes < 1024 || o.max_header_bytes > (1 << 20))
    return invalid("--max-header-bytes", "an integer 1024..1048576");
  if (o.header_timeout_s < 1 || o.header_timeout_s > 3600) return invalid("--header-timeout", "1..3600 seconds");
  if (o.max_waiting_connections < 16 || o.max_waiting_connections > 1000000)
    return invalid("--max-waiting-connections", "an integer 16..1000000");
  for (const auto& origin : o.allowed_origins)
    if (origin != "*" && !is_http_url(origin))
      return invalid("--allow-origin", "an origin such as http://localhost:3000 or *, got '" + origin + "'");
  if (o.read_timeout_s < 1 || o.read_timeout_s > 3600) return invalid("--read-timeout", "1..3600 seconds");
  if (o.min_free_disk < 0 || o.min_free_disk > (1LL << 50))
    return invalid("--min-free-disk", "a number of bytes 0..2^50 (1 PiB)");
  return Ok{};
}

// Upper bounds keep every duration, once in clock milliseconds, and every
// count far from int64 and int limits (docs/api.md §1.4).
constexpr double k_max_duration_s = 2'592'000;  // 30 days
constexpr std::int64_t k_max_registry_cache_ttl_s = 31'536'000;
constexpr double k_max_time_scale = 1e6;
constexpr std::int64_t k_gib = 1LL << 30;

// The negated comparisons also refuse NaN.
Status validate_durations_and_sizes(const ServeOptions& o) {
  const std::string days = std::to_string(static_cast<long>(k_max_duration_s)) + " seconds (30 days)";
  if (o.max_attempts < 1 || o.max_attempts > 100) return invalid("--max-attempts", "an integer 1..100");
  if (!(o.delay_threshold_s > 0 && o.delay_threshold_s <= k_max_duration_s))
    return invalid("--delay-threshold", "a number of seconds > 0 and <= " + days);
  if (!(o.upload_ttl_s >= 1 && o.upload_ttl_s <= k_max_duration_s))
    return invalid("--upload-ttl", "at least 1 second and at most " + days);
  if (!(o.time_scale > 0 && o.time_scale <= k_max_time_scale)) return invalid("--time-scale", "a number > 0 and <= 1e6");
  if (o.callback_backoff_base_ms < 1 || o.callback_backoff_base_ms > 3'600'000)
    return invalid("--callback-backoff-base-ms", "an integer 1..3600000 (an hour)");
  if (o.max_body < 1024 || o.max_body > k_gib) return invalid("--max-body", "1024..1073741824 bytes (1 GiB)");
  if (o.max_upload < 1 || o.max_upload > 1024 * k_gib) return invalid("--max-upload", "1 byte..1 TiB");
  if (o.max_log_bytes < 1024 || o.max_log_bytes > 1024 * k_gib) return invalid("--max-log-bytes", "1024 bytes..1 TiB");
  return Ok{};
}

constexpr std::size_t k_min_service_token_chars = 16;

Result<std::string> checked_token(const std::string& source, std::string token) {
  if (token.size() < k_min_service_token_chars)
    return invalid(source, "a service token of at least " + std::to_string(k_min_service_token_chars) +
                               " characters, got " + std::to_string(token.size()));
  return token;
}

// The first line of the file, without the whitespace around it.
Result<std::string> token_from_file(const std::string& path) {
  auto text = util::read_file(path);
  if (!text) return invalid("--service-token-file", "a readable file: " + text.error().message);
  return checked_token("--service-token-file", util::trim(text->substr(0, text->find('\n'))));
}

bool is_http_url(const std::string& text) {
  return text.rfind("http://", 0) == 0 || text.rfind("https://", 0) == 0;
}

}  // namespace

void register_serve_options(CLI::App& command, ServeOptions& o) {
  command.add_option("--host", o.host, "Address to listen on")->capture_default_str();
  command.add_option("--port", o.port, "Port to listen on (0 picks a free one)")->capture_default_str();
  command.add_option("--data-dir", o.data_dir, "SQLite file, job workspaces, uploads and artifacts")
      ->capture_default_str();
  command.add_option("--db", o.db, "Database file, or :memory: to keep nothing on disk (default: <data-dir>/jgrid.db)");
  command.add_flag("--ephemeral", o.ephemeral, "Use a temporary data dir removed at exit (for CI)");
  command.add_option("--fleet", o.fleet,
                     "Fleet file (YAML or JSON; repeatable, merged), or 'none' for no simulated nodes "
                     "(default: built-in fleet)");
  command.add_option("--clock", o.clock, "real or virtual (default: the fleet file's clock.mode, else real)");
  command.add_option("--seed", o.seed, "Seed of every random draw of the simulation (default: the fleet's)");
  command.add_option("--public-url", o.public_url, "Base of every URL the server returns (default: from the Host header)");
  command.add_option("--base-path", o.base_path, "Also serve the API under this prefix, e.g. /grid");
  command.add_option("--log-level", o.log_level, "debug, info, warn or error")->capture_default_str();
  command.add_option("--log-format", o.log_format, "text or json")->capture_default_str();
  command.add_option("--max-attempts", o.max_attempts, "Placements per job before a lost node fails it")
      ->capture_default_str();
  command.add_option("--delay-threshold", o.delay_threshold_s, "Seconds in one phase before a job is marked delayed")
      ->capture_default_str();
  command.add_option("--max-body", o.max_body, "Largest JSON request body in bytes")->capture_default_str();
  command.add_option("--max-upload", o.max_upload, "Largest input upload in bytes")->capture_default_str();
  command.add_option("--upload-ttl", o.upload_ttl_s,
                     "Seconds an upload slot stays open; a slot not completed by then is refused and deleted")
      ->capture_default_str();
  command.add_option("--max-log-bytes", o.max_log_bytes, "Log bytes kept per job")->capture_default_str();
  command.add_option("--time-scale", o.time_scale, "Simulated seconds per real second")->capture_default_str();
  command.add_option("--web-dir", o.web_dir, "Serve the dashboard from this folder instead of the embedded copy");
  command.add_flag("!--no-fsync", o.synchronous_full,
                   "Commit with synchronous=NORMAL: faster, but a power loss may lose the last jobs");
  command
      .add_option("--callback-backoff-base-ms", o.callback_backoff_base_ms,
                   "Clock ms before the second callback attempt, doubling after (meant for tests)")
      ->capture_default_str()
      ->group("");  // hidden: 1 s (docs/api.md) is the value to use
  register_guard_options(command, o);
  register_local_options(command, o);
  register_slurm_options(command, o);
  register_screening_options(command, o);
}

void register_guard_options(CLI::App& command, ServeOptions& o) {
  command.add_option("--auth", o.auth, "off (any caller, workspace 'local') or keys (API keys from --keys-file)")
      ->capture_default_str();
  command.add_option("--tls-cert", o.tls_cert, "Serve HTTPS with this PEM certificate (chain); needs --tls-key");
  command.add_option("--tls-key", o.tls_key, "The PEM private key of --tls-cert");
  command.add_option("--ca-file", o.ca_file,
                     "CA bundle (PEM) that outgoing https (callbacks, registries) is verified with "
                     "(default: $JGRID_CA_FILE, else the system store)");
  command.add_option("--keys-file", o.keys_file, "JSON file of API keys: {\"keys\": [{key, workspace, scopes, revoked}]}");
  command.add_option("--service-token", o.service_token,
                     "Bearer token that may call POST /oauth/introspect (ps shows it: prefer --service-token-file or "
                     "$JGRID_SERVICE_TOKEN)");
  command.add_option("--service-token-file", o.service_token_file,
                     "File holding the service token (default: $JGRID_SERVICE_TOKEN)");
  command.add_option("--max-json-depth", o.max_json_depth, "Deepest nesting of a JSON body")->capture_default_str();
  command.add_option("--max-env-keys", o.max_env_keys, "Environment variables per job (at most 256)")
      ->capture_default_str();
  command.add_option("--max-labels", o.max_labels, "Labels per job (at most 64)")->capture_default_str();
  command.add_option("--max-stream-subscribers", o.max_stream_subscribers, "Live log streams per job")
      ->capture_default_str();
  command.add_option("--max-connections", o.max_connections, "Connections served at once; more wait")
      ->capture_default_str();
  command.add_option("--max-streams", o.max_streams, "Live event and log streams in all (429 beyond)")
      ->capture_default_str();
  command.add_option("--max-streams-per-key", o.max_streams_per_key,
                     "Live streams of one API key (of one address with auth off; 429 beyond)")
      ->capture_default_str();
  command.add_option("--header-timeout", o.header_timeout_s, "Seconds a client has to send a whole request head (408)")
      ->capture_default_str();
  command.add_option("--max-header-bytes", o.max_header_bytes, "Bytes of a request head: request line and headers (431)")
      ->capture_default_str();
  command.add_option("--max-waiting-connections", o.max_waiting_connections,
                     "Connections held while they send a head or idle between requests; idle ones are shed first")
      ->capture_default_str();
  command.add_option("--allow-origin", o.allowed_origins,
                     "Origin (scheme://host:port) whose web pages may submit, cancel or upload (repeatable; * for any)");
  command.add_option("--read-timeout", o.read_timeout_s, "Seconds a request may stall while being read")
      ->capture_default_str();
  command.add_option("--min-free-disk", o.min_free_disk, "Bytes an upload must leave free in the data dir")
      ->capture_default_str();
}

void register_local_options(CLI::App& command, ServeOptions& o) {
  command.add_option("--engine", o.engine, "Container engine of the local node: auto, podman or docker")
      ->capture_default_str();
  command.add_option("--engine-arg", o.engine_args,
                     "One extra argument placed right after `run` (repeatable), e.g. --engine-arg=--runtime "
                     "--engine-arg=runc")
      ->allow_extra_args(false);
  command.add_option("--local", o.local, "Local node: auto (when an AMD GPU and an engine are found), on or off")
      ->capture_default_str();
  command.add_flag("--local-gpu-optional", o.local_gpu_optional,
                   "List the local node without an AMD GPU: containers run with no GPU device (CI, laptops)");
  command.add_option("--local-gpu-slots", o.local_gpu_slots, "GPU slots of the local node without a GPU")
      ->capture_default_str();
  command.add_option("--sysfs-root", o.sysfs_root, "Where GPU detection reads sysfs")->capture_default_str();
  command.add_option("--dev-root", o.dev_root, "Where GPU detection finds /dev/kfd and /dev/dri")
      ->capture_default_str();
}

void register_slurm_options(CLI::App& command, ServeOptions& o) {
  command.add_flag("--slurm", o.slurm,
                   "Run jobs on a Slurm cluster: its GPU nodes join the fleet (without --fleet, they are the fleet)");
  command.add_option("--slurm-partition", o.slurm_partitions, "Only this partition's nodes (repeatable)")
      ->allow_extra_args(false);
  command.add_option("--slurm-engine", o.slurm_engine, "Container engine on the compute nodes: podman or docker");
  command.add_option("--slurm-engine-arg", o.slurm_engine_args,
                     "One extra argument placed right after `run` on the compute nodes (repeatable)")
      ->allow_extra_args(false);
  command.add_flag("--slurm-gpu-optional", o.slurm_gpu_optional,
                   "Run without GPU devices where a node has none (test clusters with fake GRES)");
  command.add_flag("--slurm-skip-data-dir-check", o.slurm_skip_data_dir_check,
                   "Do not check at start that the compute nodes see the data dir");
}

void register_screening_options(CLI::App& command, ServeOptions& o) {
  command.add_option("--registry-lookup", o.registry_lookup,
                     "Read labels and env of images the fleet does not list from their registry: auto (on with a "
                     "real clock, off with a virtual one), on or off (offline)")
      ->capture_default_str();
  command.add_option("--registry-wait", o.registry_wait_s,
                     "Seconds a submit or estimate waits for a registry; a job accepted past it is screened again "
                     "before it runs")
      ->capture_default_str();
  command.add_option("--insecure-registry", o.insecure_registries,
                     "A registry (host[:port]) spoken to over plain HTTP, e.g. a local one (repeatable)")
      ->allow_extra_args(false);
  command.add_option("--registry-cache-ttl", o.registry_cache_ttl_s,
                     "Seconds a tag's digest is trusted before the registry is asked again (digests never expire)")
      ->capture_default_str();
  command.add_option("--registry-timeout", o.registry_timeout_s,
                     "Seconds a registry may take to answer one request before the lookup gives up (the image is "
                     "then screened by name only)")
      ->capture_default_str();
  command.add_option("--unknown-stack", o.unknown_stack,
                     "Where GPU jobs with no ROCm evidence may run: nvidia (the contract) or any (leaves it: a CUDA "
                     "build under a neutral name may land on AMD); default: the fleet file's screening.unknown_stack");
}

namespace {

bool readable(const std::string& path) { return !path.empty() && std::ifstream(path).good(); }

Status validate_tls(const ServeOptions& o) {
  if (o.tls_cert.empty() != o.tls_key.empty())
    return invalid(o.tls_cert.empty() ? "--tls-cert" : "--tls-key", "--tls-cert and --tls-key together");
  if (!o.tls_cert.empty() && !readable(o.tls_cert)) return invalid("--tls-cert", "a readable PEM file, got " + o.tls_cert);
  if (!o.tls_key.empty() && !readable(o.tls_key)) return invalid("--tls-key", "a readable PEM file, got " + o.tls_key);
  if (!o.ca_file.empty() && !readable(o.ca_file)) return invalid("--ca-file", "a readable PEM file, got " + o.ca_file);
  return Ok{};
}

Status validate_screening(const ServeOptions& o) {
  if (o.registry_lookup != "auto" && o.registry_lookup != "on" && o.registry_lookup != "off")
    return invalid("--registry-lookup", "auto, on or off, got '" + o.registry_lookup + "'");
  if (o.registry_wait_s < 0 || o.registry_wait_s > 60) return invalid("--registry-wait", "0..60 seconds");
  if (o.registry_timeout_s < 1 || o.registry_timeout_s > 300) return invalid("--registry-timeout", "1..300 seconds");
  if (o.registry_cache_ttl_s < 0 || o.registry_cache_ttl_s > k_max_registry_cache_ttl_s)
    return invalid("--registry-cache-ttl", "0.." + std::to_string(k_max_registry_cache_ttl_s) + " seconds (a year)");
  for (const auto& host : o.insecure_registries)
    if (host.empty() || host.find_first_of("/ ") != std::string::npos)
      return invalid("--insecure-registry", "a host or host:port without scheme or path, got '" + host + "'");
  if (!o.unknown_stack.empty() && o.unknown_stack != "nvidia" && o.unknown_stack != "any")
    return invalid("--unknown-stack", "nvidia or any, got '" + o.unknown_stack + "'");
  return Ok{};
}

}  // namespace

Result<std::string> resolve_service_token(const ServeOptions& o, const char* env_value) {
  if (!o.service_token.empty()) return checked_token("--service-token", o.service_token);
  if (!o.service_token_file.empty()) return token_from_file(o.service_token_file);
  if (env_value && *env_value) return checked_token("JGRID_SERVICE_TOKEN", env_value);
  return std::string();
}

Status validate(const ServeOptions& o) {
  if (o.port < 0 || o.port > 65535) return invalid("--port", "0..65535, got " + std::to_string(o.port));
  if (o.host.empty()) return invalid("--host", "an address such as 127.0.0.1");
  if (!util::parse_log_level(o.log_level)) return invalid("--log-level", "debug, info, warn or error");
  if (o.log_format != "text" && o.log_format != "json") return invalid("--log-format", "text or json");
  if (!o.public_url.empty() && !is_http_url(o.public_url))
    return invalid("--public-url", "an http:// or https:// URL, got '" + o.public_url + "'");
  if (!o.base_path.empty() && (o.base_path[0] != '/' || o.base_path == "/" || o.base_path.back() == '/'))
    return invalid("--base-path", "a path like /grid (leading slash, no trailing slash)");
  if (auto sizes = validate_durations_and_sizes(o); !sizes) return sizes;
  if (!o.clock.empty() && o.clock != "real" && o.clock != "virtual") return invalid("--clock", "real or virtual");
  if (o.fleet.size() > 1 && std::find(o.fleet.begin(), o.fleet.end(), "none") != o.fleet.end())
    return invalid("--fleet", "either 'none' or fleet files, not both");
  if (o.ephemeral && !o.db.empty() && o.db != ":memory:")
    return invalid("--db", "no file path together with --ephemeral");
  if (auto guards = validate_guards(o); !guards) return guards;
  if (auto screening = validate_screening(o); !screening) return screening;
  if (auto tls = validate_tls(o); !tls) return tls;
  if (!o.slurm_engine.empty() && o.slurm_engine != "podman" && o.slurm_engine != "docker")
    return invalid("--slurm-engine", "podman or docker, got '" + o.slurm_engine + "'");
  return validate_local(o);
}

}  // namespace jgrid::cli
