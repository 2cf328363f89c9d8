#include <catch2/catch.hpp>

#include <algorithm>
#include <mutex>
#include <set>
#include <thread>

#include "jgrid/util/ids.hpp"

using namespace jgrid::util;

TEST_CASE("util::new_id has the prefix and 26 URL-safe characters", "[util]") {
  std::string id = new_id("job", 1'790'000'000'000);
  REQUIRE(id.size() == 4 + 26);
  CHECK(id.rfind("job_", 0) == 0);
  CHECK(id.find_first_not_of("0123456789ABCDEFGHJKMNPQRSTVWXYZ", 4) == std::string::npos);
}

TEST_CASE("util::new_id sorts by creation, within and across milliseconds", "[util]") {
  std::vector<std::string> ids;
  std::int64_t t = 1'790'000'000'000;
  for (int i = 0; i < 2000; ++i) ids.push_back(new_id("job", t + i / 100));
  CHECK(std::is_sorted(ids.begin(), ids.end()));
  CHECK(std::set<std::string>(ids.begin(), ids.end()).size() == ids.size());
}

TEST_CASE("util::new_id still sorts when the clock goes backwards", "[util]") {
  std::string later = new_id("job", 1'900'000'000'000);
  std::string after = new_id("job", 1'800'000'000'000);
  CHECK(later < after);
}

TEST_CASE("util::new_id is unique and ordered per thread across threads", "[util]") {
  constexpr int k_threads = 4, k_each = 5000;
  std::vector<std::vector<std::string>> made(k_threads);
  std::vector<std::thread> threads;
  for (int t = 0; t < k_threads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < k_each; ++i) made[t].push_back(new_id("evt", 2'000'000'000'000));
    });
  for (auto& thread : threads) thread.join();
  std::set<std::string> all;
  for (const auto& list : made) {
    CHECK(std::is_sorted(list.begin(), list.end()));
    all.insert(list.begin(), list.end());
  }
  CHECK(all.size() == static_cast<std::size_t>(k_threads * k_each));
}

TEST_CASE("util::random_hex returns 2 hex characters per byte, differently each time", "[util]") {
  std::string a = random_hex(16), b = random_hex(16);
  CHECK(a.size() == 32);
  CHECK(a.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(a != b);
  CHECK(random_hex(0).empty());
}
