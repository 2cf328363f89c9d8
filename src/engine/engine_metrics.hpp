#pragma once
// The engine's series in the process-wide metrics registry (docs/api.md §2.11):
// screening and routing counts and latencies.
#include "jgrid/screen/screen.hpp"

namespace jgrid::engine {

// Declares every series below at zero, so /metrics shows them before the
// first screening or routing decision.
void declare_engine_metrics();

// jgrid_screen_total{result=passed|warned|blocked} and
// jgrid_screen_duration_seconds: every screening (submit, estimate).
void record_screening(const screen::Screening& screening, double seconds);

// jgrid_route_total{result=placed|waiting} and jgrid_route_duration_seconds:
// every routing decision of the scheduler.
void record_route(bool placed, double seconds);

// jgrid_callback_deliveries_total{result=delivered|retried|failed}: every
// callback attempt; failed = the last attempt failed and no retry follows.
void record_callback(const char* result);

}  // namespace jgrid::engine
