// api::TaskPool grows when every thread is busy and drains on shutdown.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

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
