#include <catch2/catch.hpp>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "api/task_pool.hpp"

using namespace jgrid::api;
using namespace std::chrono_literals;

namespace {

// Waits up to 5 s for `done` to hold.
template <class Condition>
bool eventually(Condition done) {
  for (int i = 0; i < 500; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(10ms);
  }
  return done();
}

}  // namespace

TEST_CASE("api::TaskPool grows while every thread is busy and shrinks back when idle", "[http]") {
  TaskPool pool(2, 16, 100ms);
  CHECK(pool.threads() == 2);
  std::mutex mutex;
  std::condition_variable released;
  bool go = false;
  std::atomic<int> running{0};
  for (int i = 0; i < 10; ++i)
    pool.enqueue([&] {
      ++running;
      std::unique_lock lock(mutex);
      released.wait(lock, [&] { return go; });
    });
  REQUIRE(eventually([&] { return running.load() == 10; }));
  CHECK(pool.threads() >= 10);  // more may start while earlier ones wake up
  {
    std::lock_guard lock(mutex);
    go = true;
  }
  released.notify_all();
  CHECK(eventually([&] { return pool.threads() == 2; }));
}

TEST_CASE("api::TaskPool queues tasks beyond its maximum and a throwing task does not end a thread", "[http]") {
  TaskPool pool(1, 2, 1s);
  std::atomic<int> done{0};
  pool.enqueue([] { throw std::runtime_error("bad task"); });
  for (int i = 0; i < 20; ++i) pool.enqueue([&] { ++done; });
  CHECK(eventually([&] { return done.load() == 20; }));
  CHECK(pool.threads() <= 2);
}

TEST_CASE("api::TaskPool::shutdown runs what is queued, then joins", "[http]") {
  std::atomic<int> done{0};
  {
    TaskPool pool(1, 1, 1s);
    for (int i = 0; i < 5; ++i)
      pool.enqueue([&] {
        std::this_thread::sleep_for(5ms);
        ++done;
      });
    pool.shutdown();
    CHECK(done.load() == 5);
  }
}
