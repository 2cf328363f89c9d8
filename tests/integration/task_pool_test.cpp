// api::TaskPool grows when every thread is busy, shrinks back when idle and
// drains on shutdown.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "api/task_pool.hpp"

TEST_CASE("api::TaskPool runs a task while all base threads are blocked", "[api][pool]") {
  jgrid::api::TaskPool pool(2, 8);
  std::mutex mutex;
  std::condition_variable changed;
  bool release = false;
  std::atomic<int> done{0};
  for (int i = 0; i < 4; ++i)
    pool.enqueue([&] {
      std::unique_lock lock(mutex);
      changed.wait(lock, [&] { return release; });
      ++done;
    });
  std::atomic<bool> quick{false};
  pool.enqueue([&] { quick = true; });
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (!quick && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  CHECK(quick);
  {
    std::lock_guard lock(mutex);
    release = true;
  }
  changed.notify_all();
  pool.shutdown();
  CHECK(done == 4);
}

TEST_CASE("api::TaskPool never exceeds its maximum", "[api][pool]") {
  jgrid::api::TaskPool pool(1, 1);
  std::atomic<int> order{0};
  int first = -1, second = -1;
  pool.enqueue([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    first = order++;
  });
  pool.enqueue([&] { second = order++; });
  pool.shutdown();
  CHECK(first == 0);   // one thread: the second task waited for the first
  CHECK(second == 1);
}

namespace {

// Waits up to 5 s for `done` to hold.
template <class Condition>
bool eventually(Condition done) {
  for (int i = 0; i < 500 && !done(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return done();
}

}  // namespace

TEST_CASE("api::TaskPool ends threads above its base size once they are idle", "[api][pool]") {
  jgrid::api::TaskPool pool(2, 16, std::chrono::milliseconds(100));
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

TEST_CASE("api::TaskPool keeps its thread when a task throws", "[api][pool]") {
  jgrid::api::TaskPool pool(1, 1, std::chrono::seconds(1));
  std::atomic<int> done{0};
  pool.enqueue([] { throw std::runtime_error("bad task"); });
  for (int i = 0; i < 20; ++i) pool.enqueue([&] { ++done; });
  CHECK(eventually([&] { return done.load() == 20; }));
  CHECK(pool.threads() == 1);
}
