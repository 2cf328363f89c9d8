#pragma once
// Late screening (docs/rocm.md §2): the submit-time rules run again at
// provisioning, now with what the container engine says about the real
// image (labels, env), and on the node the job was placed on. Pure.
#include <optional>

#include "jgrid/exec/container_executor.hpp"
#include "jgrid/model/job_spec.hpp"
#include "jgrid/model/node.hpp"

namespace jgrid::engine {

// The first blocking rule for `spec` with `image`'s metadata, or nullopt
// when it may run. Besides the blocks of screen::screen(): an image whose
// metadata says CUDA while the job declared no intent (rule
// intent.unknown_cuda_heavy) never runs on a node of another vendor than
// the intent (`node_vendor`, e.g. "amd"). The message names the rule's
// finding and its fix.
std::optional<exec::ImageRejection> late_screen(const model::JobSpec& spec, const exec::InspectedImage& image,
                                                const std::string& node_vendor);

// late_screen as the container executor's ContainerOptions::screen_image
// hook for the node `node_vendor` (thread-safe).
exec::ImageScreen late_screen_hook(const std::string& node_vendor);

}  // namespace jgrid::engine
