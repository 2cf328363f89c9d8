#pragma once
// The local node of `serve` (docs/rocm.md §4): the container engine, the AMD GPUs
// found, the node as /v1/nodes shows it, its executor (with late screening)
// and the images the engine already holds.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "jgrid/exec/container_executor.hpp"
#include "jgrid/exec/fleet.hpp"
#include "jgrid/store/store.hpp"
#include "serve_options.hpp"

namespace jgrid::cli {

struct LocalNodeSetup {
  std::optional<model::Node> node;                    // nullopt: no local node
  std::shared_ptr<exec::ContainerExecutor> executor;  // set when node is
  std::vector<exec::ImageInfo> images;                // what the engine holds (for screening on submit)
  std::string summary;                                // one banner line: what the node is, or why there is none
};

// --local off: no node. auto: a node when an engine answers and an AMD GPU is
// usable (or --local-gpu-optional), else none with the reason in summary.
// on: the same, but error LOCAL_UNAVAILABLE (the reason and its fix) instead
// of no node. `keep_containers`: containers outlive a shutdown, to be
// reattached by the next start on the same data.
Result<LocalNodeSetup> setup_local_node(const ServeOptions& options, const std::filesystem::path& data_dir,
                                        bool keep_containers, std::shared_ptr<util::Clock> clock);

// Adds the node and the images the fleet's catalog does not know yet.
void add_to_fleet(const LocalNodeSetup& local, exec::Fleet& fleet);

// Removes containers labelled io.jgrid.job whose job is terminal in `store`
// (after engine start: live jobs own theirs; jobs this store does not know
// belong to another server). Returns how many.
int remove_orphan_containers(exec::ContainerExecutor& executor, const store::Store& store);

}  // namespace jgrid::cli
