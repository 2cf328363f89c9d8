#pragma once
// Giving freed memory back to the system. Thread-safe.

namespace jgrid::util {

// Returns the allocator's free pages to the system: tcmalloc's when the
// binary runs with it, glibc's otherwise. For after a burst (thousands of
// connections closed at once), so the resident size follows the load down
// instead of staying at its peak. Costs a few milliseconds; call rarely.
void release_free_memory();

}  // namespace jgrid::util
