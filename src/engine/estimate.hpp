#pragma once
// Runtime and cost estimates, and the api.md §2.1 estimate body. Pure.
#include <vector>

#include "jgrid/model/job.hpp"
#include "jgrid/model/node.hpp"
#include "jgrid/route/placer.hpp"

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
double likely_price(const route::RouteResult& route, const std::vector<model::Node>& nodes);

// The api.md §2.1 body for `spec` routed as `route` over `nodes`.
model::Json estimate_body(const model::JobSpec& spec, const route::RouteResult& route,
                          const std::vector<model::Node>& nodes, model::Framing framing);

}  // namespace jgrid::engine
