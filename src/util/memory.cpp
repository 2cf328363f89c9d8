#include "jgrid/util/memory.hpp"

#include <malloc.h>

// gperftools' C entry points, present only when the binary links tcmalloc.
extern "C" void MallocExtension_ReleaseFreeMemory(void) __attribute__((weak));
extern "C" void MallocExtension_MarkThreadIdle(void) __attribute__((weak));

namespace jgrid::util {

void release_free_memory() {
  if (!MallocExtension_ReleaseFreeMemory) {
    malloc_trim(0);
    return;
  }
  // The calling thread's cache first: it is the one that freed the most.
  if (MallocExtension_MarkThreadIdle) MallocExtension_MarkThreadIdle();
  MallocExtension_ReleaseFreeMemory();
}

}  // namespace jgrid::util
