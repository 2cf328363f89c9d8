#include "local_setup.hpp"

#include <unistd.h>

#include "jgrid/engine/late_screening.hpp"
#include "jgrid/exec/local_node.hpp"
#include "jgrid/model/status.hpp"
#include "jgrid/util/log.hpp"

namespace jgrid::cli {
namespace {

std::string host_name() {
  char name[256] = {};
  return gethostname(name, sizeof(name) - 1) == 0 ? std::string(name) : "";
}

exec::ContainerOptions container_options(const ServeOptions& o, const std::string& engine,
                                         const std::filesystem::path& data_dir, bool keep,
                                         exec::LocalGpuReport gpus) {
  exec::ContainerOptions options;
  options.engine = engine;
  options.engine_args = o.engine_args;
  options.gpu_optional = o.local_gpu_optional;
  options.gpus = std::move(gpus);
  options.data_dir = data_dir;
  options.screen_image = engine::late_screen_hook("amd");
  options.keep_containers_on_shutdown = keep;
  return options;
}

std::string no_gpu_reason(const exec::LocalGpuReport& report) {
  std::string why = report.problems.empty() ? "no AMD GPU detected" : report.problems.front();
  return why + " (--local-gpu-optional runs containers without a GPU)";
}

Result<LocalNodeSetup> none(const ServeOptions& o, const std::string& why) {
  if (o.local == "on") return make_error("LOCAL_UNAVAILABLE", "--local on: " + why);
  return LocalNodeSetup{std::nullopt, nullptr, {}, "none: " + why};
}

}  // namespace

Result<LocalNodeSetup> setup_local_node(const ServeOptions& o, const std::filesystem::path& data_dir,
                                        bool keep_containers, std::shared_ptr<util::Clock> clock) {
  if (o.local == "off") return LocalNodeSetup{std::nullopt, nullptr, {}, "off (--local off)"};
  // Detection first: it only reads files, and without a GPU no engine is asked.
  exec::LocalGpuReport gpus = exec::detect_local_gpus(o.sysfs_root, o.dev_root);
  if (!gpus.usable() && !o.local_gpu_optional) return none(o, no_gpu_reason(gpus));
  auto engine = exec::resolve_engine(o.engine);
  if (!engine) return none(o, engine.error().message);
  auto node = exec::make_local_node(gpus, {*engine, o.local_gpu_optional, o.local_gpu_slots, host_name()});
  LocalNodeSetup setup;
  setup.summary = exec::describe_local_node(*node, gpus);
  setup.node = std::move(node);
  setup.images = exec::local_image_catalog(*engine);
  setup.executor =
      exec::make_container_executor(container_options(o, *engine, data_dir, keep_containers, std::move(gpus)), clock);
  return setup;
}

void add_to_fleet(const LocalNodeSetup& local, exec::Fleet& fleet) {
  if (!local.node) return;
  fleet.nodes.push_back(*local.node);
  for (const auto& image : local.images)
    if (!fleet.find_image(image.ref)) fleet.images.push_back(image);
}

int remove_orphan_containers(exec::ContainerExecutor& executor, const store::Store& store) {
  auto containers = executor.job_containers();
  if (!containers) {
    util::log(util::LogLevel::warn, "serve", "cannot list job containers", {{"error", containers.error().message}});
    return 0;
  }
  int removed = 0;
  for (const auto& container : *containers) {
    auto job = store.get_job(container.job_id);
    // Another server's (another data dir) are not ours to remove.
    if (!job || !model::is_terminal(job->status)) continue;
    if (executor.remove_container(container.job_id)) ++removed;
  }
  return removed;
}

}  // namespace jgrid::cli
