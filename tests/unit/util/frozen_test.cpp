#include <catch2/catch.hpp>

#include <atomic>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "jgrid/util/frozen.hpp"

using jgrid::util::Frozen;
using Table = std::map<std::string, std::string>;

TEST_CASE("util::Frozen copies share one value until one of them is edited", "[util]") {
  Frozen<Table> original(Table{{"a", "1"}});
  Frozen<Table> copy = original;
  CHECK(copy.shares_with(original));
  copy.edit()["b"] = "2";
  CHECK_FALSE(copy.shares_with(original));
  CHECK(original->size() == 1);
  CHECK(copy->at("b") == "2");
}

TEST_CASE("util::Frozen edits its value in place when nothing shares it", "[util]") {
  Frozen<Table> only(Table{{"a", "1"}});
  const Table* before = &*only;
  only.edit()["a"] = "changed";
  CHECK(&*only == before);
  CHECK(only->at("a") == "changed");
}

TEST_CASE("util::Frozen computes a memo once and recomputes it after an edit", "[util]") {
  Frozen<Table> value(Table{{"a", "1"}});
  int calls = 0;
  auto size_text = [&](const Table& t) {
    ++calls;
    return std::to_string(t.size());
  };
  CHECK(value.memo(size_text) == "1");
  Frozen<Table> copy = value;
  CHECK(copy.memo(size_text) == "1");
  CHECK(calls == 1);
  copy.edit()["b"] = "2";
  CHECK(copy.memo(size_text) == "2");
  CHECK(value.memo(size_text) == "1");
  CHECK(calls == 2);
}

TEST_CASE("util::Frozen memo is computed once when copies ask from several threads", "[util]") {
  Frozen<Table> value(Table{{"a", "1"}});
  std::atomic<int> calls = 0, wrong = 0;  // Catch's macros are not for other threads
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([copy = value, &calls, &wrong] {
      for (int k = 0; k < 1000; ++k) {
        const std::string& memo = copy.memo([&](const Table& t) {
          ++calls;
          return t.at("a");
        });
        if (memo != "1") ++wrong;
      }
    });
  for (auto& t : threads) t.join();
  CHECK(calls == 1);
  CHECK(wrong == 0);
}
