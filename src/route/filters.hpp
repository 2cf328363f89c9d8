#pragma once
// Node filters of the placer: each check looks at one property of a node and
// adds a reason when the node cannot take the job, either never (the job
// does not fit the node even when it is empty) or not now (it would fit once
// GPUs free up or the node comes back).
#include <string>
#include <vector>

#include "jgrid/model/job_spec.hpp"
#include "jgrid/model/node.hpp"

namespace jgrid::route {

struct Intent {
  std::string vendor;   // amd | nvidia | any
  std::string runtime;  // rocm | cuda | "" (any)
};

Intent intent_of(const model::JobSpec& spec);

struct Verdict {
  std::vector<std::string> never;    // cannot run here even on an empty node
  std::vector<std::string> not_now;  // could run here later
  bool feasible() const { return never.empty() && not_now.empty(); }
  bool fits_when_empty() const { return never.empty(); }
  std::vector<std::string> reasons() const;  // never first, then not now
};

Verdict check_node(const model::JobSpec& spec, const Intent& intent, const model::Node& node);

// "8", "1.5": a number as a reason shows it.
std::string format_number(double value);

}  // namespace jgrid::route
