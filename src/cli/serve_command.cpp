// `jgrid-local serve`: wires store, fleet, executors, engine and HTTP server,
// prints the banner and the ready line, and shuts down cleanly on a signal.
#include <sys/resource.h>
#include <sys/stat.h>

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <thread>

#include "banner.hpp"
#include "commands.hpp"
#include "data_dir.hpp"
#include "jgrid/api/callback_transport.hpp"
#include "jgrid/api/registry_lookup.hpp"
#include "jgrid/api/server.hpp"
#include "jgrid/engine/engine.hpp"
#include "jgrid/exec/sim_executor.hpp"
#include "jgrid/model/layout.hpp"
#include "jgrid/util/log.hpp"
#include "jgrid/util/saturating.hpp"
#include "local_setup.hpp"
#include "serve_options.hpp"
#include "sim_setup.hpp"
#include "slurm_setup.hpp"

namespace jgrid::cli {
namespace {

int serve_failed(int code, const std::string& message) {
  std::cerr << "jgrid-local serve: " << message << "\n";
  return code;
}

store::StoreOptions store_options(const ServeOptions& o, const DataDir& dir) {
  store::StoreOptions options;
  options.path = o.db.empty() ? model::database_path(dir.path()).string() : o.db;
  options.synchronous_full = o.synchronous_full;
  return options;
}

// The simulated executor is named only when it has nodes or is alone.
std::string executors_text(std::size_t simulated_nodes, const LocalNodeSetup& local, const SlurmSetup& slurm) {
  std::string text;
  if (simulated_nodes > 0 || (!local.node && !slurm.executor))
    text = "simulated (" + std::to_string(simulated_nodes) + " nodes)";
  if (local.node) text += (text.empty() ? "" : ", ") + std::string("local ") + local.executor->kind();
  if (slurm.executor) text += (text.empty() ? "" : ", ") + std::string("slurm");
  return text;
}

// The data dir, and the database files when they are on disk: an existing
// one that others may read is made owner-only, and that is said once.
Status make_data_private(const DataDir& dir, const store::StoreOptions& store) {
  std::vector<std::filesystem::path> paths = {dir.path()};
  if (store.path != ":memory:")
    for (const char* suffix : {"", "-wal", "-shm"}) paths.emplace_back(store.path + suffix);
  auto changed = make_private(paths);
  if (!changed) return changed.error();
  std::string text;
  for (const auto& change : *changed) text += (text.empty() ? "" : ", ") + change;
  if (!text.empty()) util::log(util::LogLevel::warn, "serve", "made private (owner only): " + text);
  return Ok{};
}

std::string persistence_text(const store::StoreOptions& options, const DataDir& dir) {
  if (options.path == ":memory:") return "in-memory SQLite (nothing kept at exit)";
  std::string mode = options.synchronous_full ? "synchronous=FULL" : "synchronous=NORMAL";
  std::string text = "SQLite " + options.path + " (WAL, " + mode + ")";
  return dir.ephemeral() ? text + ", ephemeral: removed at exit" : text;
}

void apply_limits(const ServeOptions& o, api::ServerOptions& options) {
  options.max_json_depth = o.max_json_depth;
  options.max_env_keys = o.max_env_keys;
  options.max_labels = o.max_labels;
  options.max_stream_subscribers = o.max_stream_subscribers;
  options.max_connections = o.max_connections;
  options.max_streams = o.max_streams;
  options.max_streams_per_key = o.max_streams_per_key;
  options.max_header_bytes = o.max_header_bytes;
  options.header_timeout_s = o.header_timeout_s;
  options.max_waiting_connections = o.max_waiting_connections;
  options.allowed_origins = o.allowed_origins;
  options.read_timeout_s = o.read_timeout_s;
  options.min_free_disk_bytes = o.min_free_disk;
}

// Reads --keys-file and the service token before anything starts. Errors
// INVALID_KEYS_FILE naming the file and the field, INVALID_OPTION naming
// where the service token came from.
Result<api::AuthOptions> auth_options(const ServeOptions& o) {
  api::AuthOptions auth;
  auth.keys_required = o.auth == "keys";
  auto token = resolve_service_token(o, std::getenv("JGRID_SERVICE_TOKEN"));
  if (!token) return token.error();
  auth.service_token = std::move(*token);
  if (!auth.keys_required) return auth;
  auto keys = api::load_keys_file(o.keys_file);
  if (!keys) return keys.error();
  auth.keys = std::move(*keys);
  return auth;
}

bool is_loopback(const std::string& host) {
  return host == "127.0.0.1" || host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

api::ServerOptions server_options(const ServeOptions& o, const DataDir& dir, std::string secret) {
  api::ServerOptions options;
  options.host = o.host;
  options.port = o.port;
  options.public_url = o.public_url;
  options.base_path = o.base_path;
  options.data_dir = dir.path();
  options.signing_secret = std::move(secret);
  options.max_body_bytes = o.max_body;
  options.max_upload_bytes = o.max_upload;
  options.web_dir = o.web_dir;
  options.tls_cert_file = o.tls_cert;
  options.tls_key_file = o.tls_key;
  apply_limits(o, options);
  return options;
}

// The CA bundle outgoing https verifies with: --ca-file, $JGRID_CA_FILE, or
// "" for the system store.
std::string outgoing_ca_file(const ServeOptions& o) {
  if (!o.ca_file.empty()) return o.ca_file;
  const char* env = std::getenv("JGRID_CA_FILE");
  return env ? env : "";
}

// Registry lookups: on unless turned off, or left on auto with a virtual
// clock (a replay must not depend on what a registry answers today).
bool registry_lookup_on(const ServeOptions& o, const util::Clock& clock) {
  return o.registry_lookup == "on" || (o.registry_lookup == "auto" && !clock.is_virtual());
}

std::shared_ptr<exec::ImageLookup> image_lookup(const ServeOptions& o, const DataDir& dir) {
  api::RegistryOptions registry;
  registry.cache_dir = dir.path() / "registry-cache";
  registry.insecure_hosts = o.insecure_registries;
  registry.ca_file = outgoing_ca_file(o);
  registry.tag_ttl = std::chrono::seconds(o.registry_cache_ttl_s);
  registry.fetch_timeout = std::chrono::milliseconds(util::seconds_to_ms_saturated(o.registry_timeout_s));
  return api::make_registry_lookup(std::move(registry));
}

std::string seconds_text(double seconds) {
  std::ostringstream out;
  out << seconds;
  return out.str();
}

std::string screening_text(const ServeOptions& o, const exec::Fleet& fleet, bool lookups) {
  std::string text = lookups ? "image metadata from registries (wait " + seconds_text(o.registry_wait_s) +
                                   " s, cached in the data dir)"
                             : "image metadata from the fleet file and local images only (registry lookup off)";
  return text + (fleet.unknown_stack_any_vendor ? "; unknown stacks: any vendor (leaves the ROCm contract)"
                                                : "; AMD only with ROCm evidence");
}

// `bound_port` holds the server's port once it is bound: the callback
// sender refuses to call it.
engine::EngineOptions engine_options(const ServeOptions& o, const DataDir& dir, std::string callback_secret,
                                     std::shared_ptr<std::atomic<int>> bound_port) {
  engine::EngineOptions options;
  options.data_dir = dir.path();
  options.max_attempts = o.max_attempts;
  options.delay_threshold_ms = util::seconds_to_ms_saturated(o.delay_threshold_s);
  options.max_log_bytes = o.max_log_bytes;
  options.upload_ttl_ms = util::seconds_to_ms_saturated(o.upload_ttl_s);
  api::CallbackTransportOptions transport;
  transport.ca_file = outgoing_ca_file(o);
  transport.server_port = [bound_port] { return bound_port->load(); };
  options.callback_transport = api::make_http_callback_transport(std::move(transport));
  options.callback_secret = std::move(callback_secret);
  options.callback_backoff_base_ms = o.callback_backoff_base_ms;
  return options;
}

// Signals are blocked in every thread (set before any thread starts) and
// taken by one waiter, which asks the server to stop. A second signal, or a
// shutdown slower than 5 s, ends the process at once: everything acknowledged
// is already committed.
void block_stop_signals(sigset_t& set) {
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

// Every connection the front holds is a descriptor: the soft limit (often
// 1024) is raised to the hard one, so thousands of idle or slow clients do
// not leave the server unable to accept.
void raise_open_file_limit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= limit.rlim_max) return;
  limit.rlim_cur = limit.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &limit);
}

void watch_stop_signals(sigset_t set, api::Server& server) {
  std::thread([set, &server] {
    int signal = 0;
    sigwait(&set, &signal);
    util::log(util::LogLevel::info, "serve", "stopping", {{"signal", signal == SIGINT ? "SIGINT" : "SIGTERM"}});
    std::thread([] {
      std::this_thread::sleep_for(std::chrono::milliseconds(4500));
      std::_Exit(0);
    }).detach();
    server.stop();
    sigwait(&set, &signal);
    std::_Exit(0);
  }).detach();
}

int serve(const ServeOptions& o) {
  if (auto valid = validate(o); !valid) return serve_failed(k_exit_usage, valid.error().message);
  util::configure_log(*util::parse_log_level(o.log_level), o.log_format == "json");
  auto auth = auth_options(o);
  if (!auth) return serve_failed(k_exit_usage, auth.error().message);
  // With --slurm and no --fleet, the cluster is the whole fleet.
  auto fleet = load_fleet(o.slurm && o.fleet.empty() ? std::vector<std::string>{"none"} : o.fleet, o.seed);
  if (!fleet) return serve_failed(k_exit_usage, "--fleet: " + fleet.error().message);
  sigset_t signals;
  block_stop_signals(signals);
  raise_open_file_limit();

  // Everything this process creates is its owner's only: the database (and
  // SQLite's -wal and -shm, which take the database's mode), uploads,
  // artifacts, caches. The data dir holds env values and tokens.
  ::umask(077);
  auto dir = DataDir::prepare(o.data_dir, o.ephemeral);
  if (!dir) return serve_failed(k_exit_runtime, dir.error().message);
  auto secret = dir->signing_secret();
  if (!secret) return serve_failed(k_exit_runtime, secret.error().message);
  auto callback_secret = dir->callback_secret();
  if (!callback_secret) return serve_failed(k_exit_runtime, callback_secret.error().message);
  auto store_opts = store_options(o, *dir);
  if (auto made = make_data_private(*dir, store_opts); !made) return serve_failed(k_exit_runtime, made.error().message);
  auto store = store::Store::open(store_opts);
  if (!store) return serve_failed(k_exit_runtime, store.error().message);

  auto clock = make_clock(*fleet, o.clock, o.time_scale);
  if (!o.unknown_stack.empty()) fleet->unknown_stack_any_vendor = o.unknown_stack == "any";
  const bool lookups = registry_lookup_on(o, *clock);
  // Containers outlive a restart only where the next start can find their jobs.
  bool keep_containers = !dir->ephemeral() && store_opts.path != ":memory:";
  auto local = setup_local_node(o, dir->path(), keep_containers, clock);
  if (!local) return serve_failed(k_exit_runtime, local.error().message);
  const std::size_t simulated_nodes = fleet->nodes.size();
  exec::ExecutorRegistry executors{{"simulated", exec::make_sim_executor(clock, *fleet)}};
  if (local->node) executors["local"] = local->executor;
  add_to_fleet(*local, *fleet);
  auto slurm = setup_slurm(o, *fleet, dir->path(), clock);
  if (!slurm) return serve_failed(k_exit_runtime, slurm.error().message);
  if (slurm->executor) executors["slurm"] = slurm->executor;
  auto bound_port = std::make_shared<std::atomic<int>>(0);
  auto options = engine_options(o, *dir, *callback_secret, bound_port);
  if (lookups) options.image_lookup = image_lookup(o, *dir);
  options.image_lookup_bound = std::chrono::milliseconds(util::seconds_to_ms_saturated(o.registry_wait_s));
  engine::Engine engine(**store, clock, *fleet, executors, std::move(options));
  auto http_options = server_options(o, *dir, *secret);
  http_options.auth = std::move(*auth);
  api::Server server(engine, **store, std::move(http_options));
  auto port = server.bind();
  if (!port) return serve_failed(k_exit_runtime, port.error().message);
  bound_port->store(*port);
  if (auto started = engine.start(); !started) return serve_failed(k_exit_runtime, started.error().message);
  if (local->executor) remove_orphan_containers(*local->executor, **store);

  print_banner(std::cout, {server.url(), persistence_text(store_opts, *dir), dir->path().string(), &*fleet,
                           executors_text(simulated_nodes, *local, *slurm), local->summary, clock_text(*clock, fleet->seed),
                           slurm->summary, screening_text(o, *fleet, lookups)});
  if (!is_loopback(o.host) && o.auth == "off")
    util::log(util::LogLevel::warn, "serve", "listening beyond loopback with auth off: anyone who can reach " +
                                                 o.host + " can submit jobs");
  print_ready_line(std::cout, server.url());
  watch_stop_signals(signals, server);
  server.run();
  engine.stop();
  (*store)->flush();
  util::log(util::LogLevel::info, "serve", "stopped");
  return 0;
}

}  // namespace

Runner add_serve_command(CLI::App& app) {
  auto* command = app.add_subcommand("serve", "Run the grid: HTTP API, job store, simulated fleet");
  auto options = std::make_shared<ServeOptions>();
  register_serve_options(*command, *options);
  return [options] { return serve(*options); };
}

}  // namespace jgrid::cli
