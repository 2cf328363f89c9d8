#include "exec/json_checker.hpp"

#include <catch2/catch.hpp>

using namespace jgrid;
using namespace jgrid::exec;

TEST_CASE("json_checker reads typed members with fallbacks", "[exec]") {
  JsonChecker checker("BAD", "f: ");
  Json doc{{"name", "x"}, {"n", 3.0}, {"ratio", 0.5}, {"on", true}, {"tags", {{"a", "b"}}}, {"none", nullptr}};
  CHECK(checker.text(doc, "", "name", std::nullopt) == "x");
  CHECK(checker.integer(doc, "", "n", std::nullopt, 0, 10) == 3);
  CHECK(checker.number(doc, "", "ratio", std::nullopt, 0) == 0.5);
  CHECK(checker.boolean(doc, "", "on", false));
  CHECK(checker.string_map(doc, "", "tags") == std::map<std::string, std::string>{{"a", "b"}});
  CHECK(checker.text(doc, "", "none", "fallback") == "fallback");
  CHECK_FALSE(checker.strings(doc, "", "absent"));
  CHECK(checker.ok());
}

TEST_CASE("json_checker keeps the first problem with its path", "[exec]") {
  JsonChecker checker("BAD", "f: ");
  Json doc{{"pool", {{"count", 2.5}, {"name", 7}}}};
  checker.integer(doc["pool"], "pool", "count", std::nullopt, 1, 1000000000000LL);
  checker.text(doc["pool"], "pool", "name", std::nullopt);
  REQUIRE_FALSE(checker.ok());
  CHECK(checker.error().code == "BAD");
  CHECK(checker.error().message == "f: pool.count: expected an integer >= 1, got 2.5");
  CHECK(checker.error().details["field"] == "pool.count");
}

TEST_CASE("json_checker shortens long values in messages", "[exec]") {
  JsonChecker checker("BAD", "");
  checker.number(Json{{"x", std::string(100, 'z')}}, "", "x", std::nullopt, 0);
  CHECK(checker.error().message.size() < 100);
  CHECK(index_path("pools", 3) == "pools[3]");
  CHECK(member_path("", "a") == "a");
}
