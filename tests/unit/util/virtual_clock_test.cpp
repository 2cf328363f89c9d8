#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <limits>
#include <mutex>
#include <thread>
#include <vector>

#include "jgrid/util/clock.hpp"

using namespace jgrid::util;

TEST_CASE("util::make_virtual_clock jumps to each timer in order when nothing is held", "[util]") {
  auto clock = make_virtual_clock();
  std::int64_t origin = clock->now_ms();
  CHECK(origin == k_virtual_origin_ms);
  CHECK(clock->is_virtual());
  std::mutex mutex;
  std::vector<std::int64_t> fired;
  auto record = [&] {
    std::lock_guard lock(mutex);
    fired.push_back(clock->now_ms() - origin);
  };
  clock->hold();
  clock->schedule(origin + 3'600'000, record);
  clock->schedule(origin + 5'000, [&] {
    record();
    clock->schedule(clock->now_ms() + 10'000, record);  // a timer scheduling the next
  });
  clock->schedule(origin + 5'000, record);  // same time: scheduling order
  CHECK(clock->pending_timers() == 3);
  CHECK(clock->now_ms() == origin);  // held: nothing moves
  clock->release();
  clock->wait_idle();
  CHECK(fired == std::vector<std::int64_t>{5'000, 5'000, 15'000, 3'600'000});
  CHECK(clock->now_ms() == origin + 3'600'000);
}

TEST_CASE("util::Clock::advance moves a virtual clock and leaves a real one alone", "[util]") {
  auto virtual_clock = make_virtual_clock(1000);
  virtual_clock->advance(250);
  CHECK(virtual_clock->now_ms() == 1250);
  virtual_clock->advance(-5);
  CHECK(virtual_clock->now_ms() == 1250);
  auto real = make_real_clock();
  std::int64_t before = real->now_ms();
  real->advance(3'600'000);
  CHECK(real->now_ms() - before < 3'600'000);
}

TEST_CASE("util::make_real_clock runs timers at their real due time", "[util]") {
  auto clock = make_real_clock(100.0);
  std::int64_t due = clock->now_ms() + 1000;  // 10 ms of real time
  std::int64_t seen = 0;
  clock->schedule(due, [&] { seen = clock->now_ms(); });
  clock->wait_idle();
  CHECK(seen >= due);
}

TEST_CASE("util::Clock::cancel drops a pending timer, and a virtual clock does not move to it", "[util]") {
  auto clock = make_virtual_clock();
  std::int64_t origin = clock->now_ms();
  std::vector<std::int64_t> fired;
  clock->hold();
  auto dropped = clock->schedule(origin + 60'000, [&] { fired.push_back(-1); });
  auto kept = clock->schedule(origin + 5'000, [&] { fired.push_back(clock->now_ms() - origin); });
  CHECK(clock->pending_timers() == 2);
  CHECK(clock->cancel(dropped));
  CHECK_FALSE(clock->cancel(dropped));  // once
  CHECK(clock->pending_timers() == 1);
  clock->release();
  clock->wait_idle();
  CHECK(fired == std::vector<std::int64_t>{5'000});
  CHECK(clock->now_ms() == origin + 5'000);  // not 60'000: nothing waits for it
  CHECK_FALSE(clock->cancel(kept));           // it ran
}

TEST_CASE("util::Clock keeps thousands of timers in due order with every other one cancelled", "[util]") {
  auto clock = make_virtual_clock();
  std::int64_t origin = clock->now_ms();
  std::vector<std::int64_t> fired;
  std::vector<Clock::TimerId> ids;
  clock->hold();
  // Due times out of scheduling order, spread over many words of seqs.
  for (int i = 0; i < 5000; ++i) {
    std::int64_t offset = (i * 7919) % 5000;
    ids.push_back(clock->schedule(origin + offset, [&fired, &clock, origin] { fired.push_back(clock->now_ms() - origin); }));
  }
  // Cancelled from the newest down, then one old timer last.
  for (int i = 4998; i >= 2; i -= 2) CHECK(clock->cancel(ids[static_cast<std::size_t>(i)]));
  CHECK(clock->cancel(ids[0]));
  CHECK_FALSE(clock->cancel(ids[2]));
  CHECK(clock->pending_timers() == 2500);
  clock->release();
  clock->wait_idle();
  std::vector<std::int64_t> expected;
  for (int i = 1; i < 5000; i += 2) expected.push_back((i * 7919) % 5000);
  std::sort(expected.begin(), expected.end());
  CHECK(fired == expected);
  CHECK_FALSE(clock->cancel(ids[1]));  // it ran
}

TEST_CASE("util::Clock::cancel of the last pending timer lets wait_idle return", "[util]") {
  auto clock = make_real_clock();
  auto far = clock->schedule(clock->now_ms() + 3'600'000, [] {});
  CHECK(clock->cancel(far));
  clock->wait_idle();  // would wait an hour for the timer
  CHECK(clock->pending_timers() == 0);
}

TEST_CASE("util::Clock::rest() tells a running callback from a clock at rest", "[util]") {
  auto clock = make_virtual_clock();
  std::atomic<bool> entered{false}, open{false}, left{false};
  clock->schedule(clock->now_ms() + 1000, [&] {
    entered = true;
    while (!open) std::this_thread::yield();  // runs until the test opens the gate
    left = true;
  });
  while (!entered) std::this_thread::yield();
  Clock::Rest busy = clock->rest();
  CHECK(busy.callback_running);
  CHECK(busy.held == 0);  // the callback's own turn is not a hold
  CHECK(busy.callbacks_run == 0);
  open = true;
  clock->wait_idle();
  CHECK(left);
  Clock::Rest rest = clock->rest();
  CHECK_FALSE(rest.callback_running);
  CHECK(rest.pending == 0);
  CHECK(rest.callbacks_run == 1);
}

TEST_CASE("util::Clock timers at the int64 extremes neither wrap around nor hold up the timers behind them",
          "[util][limits]") {
  constexpr std::int64_t k_max = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t k_min = std::numeric_limits<std::int64_t>::min();
  auto clock = make_real_clock(1e6);
  std::atomic<int> fired{0};
  std::atomic<bool> never{false};
  auto far = clock->schedule(k_max, [&] { never = true; });
  clock->schedule(k_min, [&] { ++fired; });  // long past: at once
  clock->schedule(clock->now_ms() + 10, [&] { ++fired; });
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (fired.load() < 2 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  CHECK(fired.load() == 2);
  CHECK_FALSE(never.load());
  CHECK(clock->cancel(far));

  auto virtual_clock = make_virtual_clock();
  virtual_clock->advance(k_max);
  CHECK(virtual_clock->now_ms() == k_max);
  virtual_clock->advance(k_max);
  CHECK(virtual_clock->now_ms() == k_max);
}
