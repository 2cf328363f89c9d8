#pragma once
// Threads that feed or drain the one thread a run waits for.

namespace jgrid::util {

// Names the calling thread `name` (at most 15 characters show) and lowers
// its priority by 5 nice levels. For threads whose work only has to keep
// ahead of another's (a simulation's trace reader and stream store feed and
// drain the virtual clock's thread, which every simulated job waits for):
// with more busy threads than cores, the scheduler then makes them wait
// rather than the clock's thread. A priority that cannot be lowered is
// left as it is.
void become_helper_thread(const char* name);

}  // namespace jgrid::util
