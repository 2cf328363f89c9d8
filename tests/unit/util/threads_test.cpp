#include "jgrid/util/threads.hpp"

#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <thread>

TEST_CASE("util::become_helper_thread names the thread and lowers only its priority", "[util]") {
  const int before = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
  int helper_nice = 0;
  std::string helper_name;
  std::thread helper([&] {
    jgrid::util::become_helper_thread("test helper");
    helper_nice = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
    char name[16] = {};
    pthread_getname_np(pthread_self(), name, sizeof name);
    helper_name = name;
  });
  helper.join();
  CHECK(helper_name == "test helper");
  CHECK(helper_nice == std::min(before + 5, 19));
  CHECK(getpriority(PRIO_PROCESS, static_cast<id_t>(gettid())) == before);  // the caller's own is unchanged
}
