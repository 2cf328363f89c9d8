#pragma once
// Runtime and cost estimates, and the docs/api.md §2.1 estimate body. Pure.
#include <vector>

#include "jgrid/model/job.hpp"
#include "jgrid/model/node.hpp"
#include "jgrid/route/placer.hpp"
#include "jgrid/screen/screen.hpp"

namespace jgrid::engine {

struct RuntimeEstimate {
  double expected_minutes = 10;
  double min_minutes = 5;
  double max_minutes = 15;
};

// From sim.duration_s when the job states one, else from the workload type
// and model size; never longer than timeout_seconds.
RuntimeEstimate estimate_runtime(const model::JobSpec& spec);

// The GPU-hour price the job would pay: the placement's node, else the
// cheapest node it could use once GPUs free up; 0 when none.
double likely_price(const route::RouteResult& route);

// The docs/api.md §2.1 body for `spec`, screened as `screening` and routed as
// `route` (a route::report(), so routing.candidates lists every node). A
// blocked screening makes can_submit false with unavailable_code
// SCREENING_REJECTED; an unplaceable route, CAPACITY_UNAVAILABLE.
model::Json estimate_body(const model::JobSpec& spec, const screen::Screening& screening,
                          const route::RouteResult& route, model::Framing framing);

}  // namespace jgrid::engine
