#pragma once
// Screening as the engine runs it on submit and estimate (docs/rocm.md §2): the
// request against what the fleet's image catalog knows about its image, and
// what a result turns into (an error, the job's screening field, an event).
// Pure.
#include <string>

#include "jgrid/exec/fleet.hpp"
#include "jgrid/model/job.hpp"
#include "jgrid/screen/screen.hpp"
#include "jgrid/util/result.hpp"
#include "recorder.hpp"

namespace jgrid::engine {

// The catalog entry of `image` as screening metadata; known == false when the
// catalog does not list it.
screen::ImageMetadata image_metadata(const exec::Fleet& fleet, const std::string& image);

// The fleet's screening choices (unknown_stack: any).
screen::ScreenOptions screen_options(const exec::Fleet& fleet);

// screen::screen() with the catalog's metadata for the spec's image.
screen::Screening screen_spec(const exec::Fleet& fleet, const model::JobSpec& spec);

// screen::screen() with the given metadata, counted in the screening metrics.
screen::Screening screen_with(const model::JobSpec& spec, const screen::ImageMetadata& image,
                              const screen::ScreenOptions& options);

// SCREENING_REJECTED "screening blocked the workload: image.cuda_name, …",
// details {blocked_checks: [rule ids], checks: [Check], fixes: [text]}.
// Precondition: screening.blocked().
Error screening_error(const screen::Screening& screening);


// job.screened from source "screener": level "warning" when a rule warned.
EventSpec screened_event(const screen::Screening& screening);

// "Screening blocked …: image.cuda_name, command.nvidia_tool".
std::string join_rules(const std::vector<std::string>& rules);

}  // namespace jgrid::engine
