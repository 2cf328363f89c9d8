#include <cctype>
#include <climits>

#include "exec/fleet_slurm.hpp"
#include "exec/json_checker.hpp"
#include "exec/sim_behaviour.hpp"
#include "jgrid/exec/fleet.hpp"
#include "jgrid/util/strings.hpp"

namespace jgrid::exec {
namespace {

constexpr long long k_max_pool_nodes = 100000;
constexpr std::size_t k_max_name_chars = 63;

struct Pool {
  model::Node node;
  long long count = 1;
  PoolFaults faults;
};

// Rates in [0, 1] per run, and Poisson rates per hour of run time (>= 0).
void read_faults(JsonChecker& checker, const Json& item, const std::string& parent, PoolFaults& out) {
  const Json* faults = checker.object(item, parent, "faults");
  if (!faults) return;
  std::string path = member_path(parent, "faults");
  auto rate = [&](const char* key, double& value) {
    value = checker.number(*faults, path, key, value, 0);
    if (checker.ok() && value > 1) checker.fail(member_path(path, key), "a probability between 0 and 1", &faults->at(key));
  };
  out.node_lost_per_hour = checker.number(*faults, path, "node_lost_per_hour", 0.0, 0);
  out.ecc_error_per_hour = checker.number(*faults, path, "ecc_error_per_hour", 0.0, 0);
  out.preempt_per_hour = checker.number(*faults, path, "preempt_per_hour", 0.0, 0);
  rate("start_error_rate", out.start_error_rate);
  rate("image_pull_failure_rate", out.image_pull_failure_rate);
  rate("exit_code_rate", out.exit_code_rate);
  rate("oom_rate", out.oom_rate);
  rate("slow_rate", out.slow_rate);
  out.exit_code = static_cast<int>(checker.integer(*faults, path, "exit_code", 1, 1, 255));
  out.slow_factor = checker.number(*faults, path, "slow_factor", 2.0, 0, true);
}

bool is_digest(const std::string& text) {
  if (text.size() != 71 || !text.starts_with("sha256:")) return false;
  return text.find_first_not_of("0123456789abcdef", 7) == std::string::npos;
}

// Node names end up in URLs and log lines.
bool is_name(const std::string& text) {
  if (text.empty() || text.size() > k_max_name_chars) return false;
  for (char c : text)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') return false;
  return true;
}

void read_clock(JsonChecker& checker, const Json& doc, Fleet& fleet) {
  const Json* clock = checker.object(doc, "", "clock");
  if (!clock) return;
  fleet.clock_mode = checker.text(*clock, "clock", "mode", "real");
  if (fleet.clock_mode != "real" && fleet.clock_mode != "virtual")
    checker.fail("clock.mode", "real or virtual", &clock->at("mode"));
  fleet.clock_scale = checker.number(*clock, "clock", "scale", 1.0, 0, true);
}

void read_screening(JsonChecker& checker, const Json& doc, Fleet& fleet) {
  const Json* screening = checker.object(doc, "", "screening");
  if (!screening) return;
  std::string unknown = checker.text(*screening, "screening", "unknown_stack", "nvidia");
  if (unknown != "nvidia" && unknown != "any")
    checker.fail("screening.unknown_stack", "nvidia or any", &screening->at("unknown_stack"));
  fleet.unknown_stack_any_vendor = unknown == "any";
}

ImageInfo read_image(JsonChecker& checker, const Json& item, const std::string& path) {
  ImageInfo image;
  if (!item.is_object()) {
    checker.fail(path, "an object", &item);
    return image;
  }
  image.ref = checker.text(item, path, "ref", std::nullopt);
  if (checker.ok() && util::trim(image.ref).empty())
    checker.fail(member_path(path, "ref"), "a non-empty image reference");
  image.labels = checker.string_map(item, path, "labels");
  image.env = checker.string_map(item, path, "env");
  image.digest = checker.text(item, path, "digest", "");
  if (checker.ok() && !image.digest.empty() && !is_digest(image.digest))
    checker.fail(member_path(path, "digest"), "sha256:<64 lower-case hex digits>", &item.at("digest"));
  image.size_mb = checker.number(item, path, "size_mb", 500.0, 0, true);
  if (const Json* sim = checker.object(item, path, "sim")) {
    SimBehaviour checked;
    read_sim(checker, *sim, member_path(path, "sim"), checked);
    image.sim = *sim;
  }
  return image;
}

void read_images(JsonChecker& checker, const Json& doc, Fleet& fleet) {
  const Json* images = checker.array(doc, "", "images");
  if (!images) return;
  std::map<std::string, std::size_t> seen;
  for (std::size_t i = 0; i < images->size() && checker.ok(); ++i) {
    std::string path = index_path("images", i);
    fleet.images.push_back(read_image(checker, (*images)[i], path));
    auto [it, fresh] = seen.emplace(fleet.images.back().ref, i);
    if (!fresh && checker.ok())
      checker.fail(member_path(path, "ref"), "a unique image reference (images[" + std::to_string(it->second) +
                                                 "] has it already)", &(*images)[i].at("ref"));
  }
}

std::string default_family(const model::Node& node) {
  if (node.gpu_vendor != "amd") return "";
  return node.gpu_model.starts_with("MI") ? "instinct" : "radeon";
}

void read_gpu(JsonChecker& checker, const Json& pool, const std::string& parent, model::Node& node) {
  const Json* gpu = checker.object(pool, parent, "gpu", true);
  if (!gpu) return;
  std::string path = member_path(parent, "gpu");
  node.gpu_vendor = util::to_lower(checker.text(*gpu, path, "vendor", std::nullopt));
  if (checker.ok() && node.gpu_vendor != "amd" && node.gpu_vendor != "nvidia")
    checker.fail(member_path(path, "vendor"), "amd or nvidia", &gpu->at("vendor"));
  node.gpu_model = checker.text(*gpu, path, "model", std::nullopt);
  node.gpu_family = util::to_lower(checker.text(*gpu, path, "family", default_family(node)));
  node.gpu_class = util::to_lower(checker.text(*gpu, path, "class", "datacenter"));
  if (checker.ok() && node.gpu_class != "datacenter" && node.gpu_class != "workstation" &&
      node.gpu_class != "consumer")
    checker.fail(member_path(path, "class"), "datacenter, workstation or consumer", &gpu->at("class"));
  node.gpu_count = static_cast<int>(checker.integer(*gpu, path, "count", std::nullopt, 1, INT_MAX));
  node.vram_gb = checker.number(*gpu, path, "vram_gb", std::nullopt, 0, true);
  node.gpu_arch = checker.text(*gpu, path, "arch", "");
}

// A version written as a bare number (6.2) is read as its text.
std::string read_version(JsonChecker& checker, const Json& runtime, const std::string& path,
                         const std::string& fallback) {
  auto it = runtime.find("version");
  if (it != runtime.end() && it->is_number()) return it->dump();
  return checker.text(runtime, path, "version", fallback);
}

void read_runtime(JsonChecker& checker, const Json& pool, const std::string& parent, model::Node& node) {
  bool nvidia = node.gpu_vendor == "nvidia";
  node.runtime = nvidia ? "cuda" : "rocm";
  node.runtime_version = nvidia ? "12.4" : "6.2";
  const Json* runtime = checker.object(pool, parent, "runtime");
  if (!runtime) return;
  std::string path = member_path(parent, "runtime");
  std::string name = util::to_lower(checker.text(*runtime, path, "name", node.runtime));
  if (checker.ok() && name != node.runtime)
    checker.fail(member_path(path, "name"), node.runtime + " for a " + node.gpu_vendor + " pool", &runtime->at("name"));
  node.runtime_version = read_version(checker, *runtime, path, node.runtime_version);
}

void read_provision_range(JsonChecker& checker, const Json& startup, const std::string& path, model::Node& node) {
  const Json* range = checker.array(startup, path, "provision_s");
  if (!range) return;
  bool pair = range->size() == 2 && (*range)[0].is_number() && (*range)[1].is_number();
  double min = pair ? (*range)[0].get<double>() : -1, max = pair ? (*range)[1].get<double>() : -1;
  if (!pair || min < 0 || max < min)
    return checker.fail(member_path(path, "provision_s"), "[min, max] seconds with 0 <= min <= max", range);
  node.startup.provision_min_s = min;
  node.startup.provision_max_s = max;
}

void read_startup(JsonChecker& checker, const Json& pool, const std::string& parent, model::Node& node) {
  const Json* startup = checker.object(pool, parent, "startup");
  if (!startup) return;
  std::string path = member_path(parent, "startup");
  read_provision_range(checker, *startup, path, node);
  node.startup.image_pull_mb_per_s =
      checker.number(*startup, path, "image_pull_mb_per_s", node.startup.image_pull_mb_per_s, 0, true);
}

Pool read_pool(JsonChecker& checker, const Json& item, const std::string& path) {
  Pool pool;
  if (!item.is_object()) {
    checker.fail(path, "an object", &item);
    return pool;
  }
  model::Node& node = pool.node;
  node.pool = checker.text(item, path, "name", std::nullopt);
  if (checker.ok() && !is_name(node.pool))
    checker.fail(member_path(path, "name"), "a name of letters, digits, '.', '_' or '-' (at most 63)", &item.at("name"));
  pool.count = checker.integer(item, path, "count", 1, 0, k_max_pool_nodes);
  node.region = checker.text(item, path, "region", "local");
  read_gpu(checker, item, path, node);
  read_runtime(checker, item, path, node);
  node.price_per_gpu_hour = checker.number(item, path, "price_per_gpu_hour", 0.0, 0);
  node.speed = checker.number(item, path, "speed", 1.0, 0, true);
  node.labels = checker.string_map(item, path, "labels");
  read_startup(checker, item, path, node);
  read_faults(checker, item, path, pool.faults);
  return pool;
}

void expand(const Pool& pool, std::vector<model::Node>& nodes) {
  nodes.reserve(nodes.size() + static_cast<std::size_t>(pool.count));
  for (long long i = 1; i <= pool.count; ++i) {
    model::Node node = pool.node;
    node.name = node.pool + "-" + std::to_string(i);
    node.id = "node_" + node.name;
    node.source = "simulated";
    node.gpus_free = node.gpu_count;
    nodes.push_back(std::move(node));
  }
}

void read_pools(JsonChecker& checker, const Json& doc, Fleet& fleet) {
  const Json* pools = checker.array(doc, "", "pools", !doc.contains("slurm") && !doc.contains("images"));
  if (!pools) return;
  std::map<std::string, std::size_t> seen;
  for (std::size_t i = 0; i < pools->size() && checker.ok(); ++i) {
    std::string path = index_path("pools", i);
    Pool pool = read_pool(checker, (*pools)[i], path);
    auto [it, fresh] = seen.emplace(pool.node.pool, i);
    if (!fresh && checker.ok())
      checker.fail(member_path(path, "name"), "a unique pool name (pools[" + std::to_string(it->second) +
                                                  "] has it already)", &(*pools)[i].at("name"));
    if (checker.ok()) expand(pool, fleet.nodes);
    if (checker.ok() && pool.faults.any()) fleet.faults[pool.node.pool] = pool.faults;
  }
}

}  // namespace

Result<Fleet> parse_fleet(const nlohmann::json& doc, const std::string& source) {
  JsonChecker checker("INVALID_FLEET", source + ": ");
  if (!doc.is_object()) checker.fail("(document)", "an object", &doc);
  Fleet fleet;
  if (checker.ok()) {
    fleet.seed = static_cast<std::uint64_t>(checker.integer(doc, "", "seed", 42, 0, LLONG_MAX));
    read_clock(checker, doc, fleet);
    read_screening(checker, doc, fleet);
    read_images(checker, doc, fleet);
    read_pools(checker, doc, fleet);
    read_slurm_section(checker, doc, fleet);
    fleet.images_only = !doc.contains("pools") && !doc.contains("slurm");
  }
  if (!checker.ok()) return checker.error();
  return fleet;
}

}  // namespace jgrid::exec
