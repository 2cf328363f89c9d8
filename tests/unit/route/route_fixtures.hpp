#pragma once
// Nodes, specs and intents for router tests.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "jgrid/route/placer.hpp"
#include "node_fixture.hpp"

namespace jgrid::test {


inline model::JobSpec make_spec(int gpus = 1) {
  model::JobSpec spec;
  spec.image = "ghcr.io/acme/app:latest";
  spec.gpu_count = gpus;
  return spec;
}

// An intent as the screener states it for the vendor ("" = none).
inline screen::Intent intent_for(const std::string& vendor) {
  screen::Intent intent;
  intent.vendor = vendor;
  intent.runtime = vendor == "amd" ? "rocm" : vendor == "nvidia" ? "cuda" : "";
  intent.explicit_rocm = vendor == "amd";
  intent.explicit_nvidia = vendor == "nvidia";
  intent.confidence = vendor.empty() ? "low" : "high";
  return intent;
}

inline route::RouteResult place_on(const model::JobSpec& spec, const std::string& vendor,
                                   const std::vector<model::Node>& nodes, std::uint64_t seed = 42) {
  return route::report(spec, intent_for(vendor), nodes, seed);
}

inline const route::Candidate& candidate(const route::RouteResult& result, const std::string& node_id) {
  for (const auto& c : result.candidates)
    if (c.node_id == node_id) return c;
  FAIL("no candidate " << node_id);
  throw;
}

}  // namespace jgrid::test
