#include "exec/slurm_polling.hpp"

#include <catch2/catch.hpp>

using namespace jgrid::exec;
using namespace std::chrono_literals;

namespace {

SlurmOptions options_polling(std::chrono::milliseconds poll, std::chrono::milliseconds started_poll) {
  SlurmOptions options;
  options.poll = poll;
  options.started_poll = started_poll;
  return options;
}

}  // namespace

TEST_CASE("exec::next_squeue_at polls fast while a run's script has not started", "[exec][slurm]") {
  const auto options = options_polling(250ms, 5s);
  const SteadyTime last = std::chrono::steady_clock::now();
  CHECK(next_squeue_at(last, 1, options) == last + 250ms);
  CHECK(next_squeue_at(last, 200, options) == last + 250ms);
}

TEST_CASE("exec::next_squeue_at polls slowly once every run's script has started", "[exec][slurm]") {
  const SteadyTime last = std::chrono::steady_clock::now();
  CHECK(next_squeue_at(last, 0, options_polling(250ms, 5s)) == last + 5s);
  CHECK(next_squeue_at(last, 0, options_polling(200ms, 3s)) == last + 3s);
}

TEST_CASE("exec::next_squeue_at brings the next poll forward when a waiting run comes", "[exec][slurm]") {
  const auto options = options_polling(250ms, 5s);
  const SteadyTime last = std::chrono::steady_clock::now();
  // A slow poll was due in 5 s; a run submitted meanwhile makes it due at once.
  const SteadyTime now = last + 1s;
  CHECK(now < next_squeue_at(last, 0, options));
  CHECK(now >= next_squeue_at(last, 1, options));
}

TEST_CASE("exec::next_squeue_at polls at once when squeue was never run", "[exec][slurm]") {
  const auto options = options_polling(250ms, 5s);
  CHECK(next_squeue_at(SteadyTime{}, 0, options) <= std::chrono::steady_clock::now());
  CHECK(next_squeue_at(SteadyTime{}, 3, options) <= std::chrono::steady_clock::now());
}

TEST_CASE("exec::squeue_rows_fresh takes the tracker's rows only while they are recent", "[exec][slurm]") {
  const auto options = options_polling(250ms, 5s);
  const SteadyTime read_at = std::chrono::steady_clock::now();
  CHECK(squeue_rows_fresh(read_at, read_at, options));
  CHECK(squeue_rows_fresh(read_at, read_at + 499ms, options));
  CHECK_FALSE(squeue_rows_fresh(read_at, read_at + 500ms, options));
  CHECK_FALSE(squeue_rows_fresh(read_at, read_at + 5s, options));
  CHECK_FALSE(squeue_rows_fresh(SteadyTime{}, read_at, options));  // never read
}
