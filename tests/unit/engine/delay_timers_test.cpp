#include "engine/delay_timers.hpp"

#include <catch2/catch.hpp>
#include <mutex>
#include <string>
#include <vector>

using namespace jgrid;
using jgrid::engine::DelayTimers;

namespace {

struct Fired {
  std::mutex mutex;
  std::vector<std::pair<std::string, std::uint64_t>> calls;
  DelayTimers::Fire recorder() {
    return [this](const std::string& job_id, std::uint64_t token) {
      std::lock_guard lock(mutex);
      calls.emplace_back(job_id, token);
    };
  }
};

}  // namespace

TEST_CASE("engine::DelayTimers fires an armed timer with its token at its due time", "[engine]") {
  auto clock = util::make_virtual_clock();
  Fired fired;
  DelayTimers timers(*clock, fired.recorder());
  clock->hold();
  auto armed = timers.arm("job_1", clock->now_ms() + 300'000);
  CHECK(armed.token != 0);
  clock->release();
  clock->wait_idle();
  REQUIRE(fired.calls.size() == 1);
  CHECK(fired.calls[0] == std::make_pair(std::string("job_1"), armed.token));
  CHECK(clock->now_ms() == util::k_virtual_origin_ms + 300'000);
}

TEST_CASE("engine::DelayTimers::disarm cancels the timer: it never fires and time does not move to it", "[engine]") {
  auto clock = util::make_virtual_clock();
  Fired fired;
  DelayTimers timers(*clock, fired.recorder());
  clock->hold();
  auto first = timers.arm("job_1", clock->now_ms() + 300'000);
  auto second = timers.arm("job_1", clock->now_ms() + 5'000);
  CHECK(second.token != first.token);
  timers.disarm(first);
  CHECK(first.token == 0);
  timers.disarm(first);  // none: nothing to do
  CHECK(clock->pending_timers() == 1);
  clock->release();
  clock->wait_idle();
  REQUIRE(fired.calls.size() == 1);
  CHECK(fired.calls[0].second == second.token);
  CHECK(clock->now_ms() == util::k_virtual_origin_ms + 5'000);
}

TEST_CASE("engine::DelayTimers::close keeps pending timers from calling their owner", "[engine]") {
  auto clock = util::make_virtual_clock();
  Fired fired;
  {
    DelayTimers timers(*clock, fired.recorder());
    clock->hold();
    timers.arm("job_1", clock->now_ms() + 1'000);
  }  // destroyed: closed
  clock->release();
  clock->wait_idle();
  CHECK(fired.calls.empty());
}
