#include "jgrid/util/threads.hpp"

#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>

namespace jgrid::util {

void become_helper_thread(const char* name) {
  pthread_setname_np(pthread_self(), name);
  // On Linux a thread id names one thread here: only this one is lowered.
  const auto self = static_cast<id_t>(gettid());
  errno = 0;
  int nice = getpriority(PRIO_PROCESS, self);
  if (errno == 0) (void)setpriority(PRIO_PROCESS, self, nice + 5);
}

}  // namespace jgrid::util
