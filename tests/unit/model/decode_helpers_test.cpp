#include <catch2/catch.hpp>

#include "model/decode_helpers.hpp"

using namespace jgrid::model;
using namespace jgrid::model::decode;

TEST_CASE("model::decode::invalid names the field in message and details", "[model]") {
  auto error = invalid("labels.team", "expected a string");
  CHECK(error.code == "INVALID_REQUEST");
  CHECK(error.message == "labels.team: expected a string");
  CHECK(error.details == Json{{"field", "labels.team"}});
}

TEST_CASE("model::decode::member treats absent and null alike", "[model]") {
  Json body = {{"a", 1}, {"b", nullptr}};
  CHECK(member(body, "a") != nullptr);
  CHECK(member(body, "b") == nullptr);
  CHECK(member(body, "c") == nullptr);
  CHECK(member(Json::array(), "a") == nullptr);
}

TEST_CASE("model::decode::opt_count accepts integral numbers within range only", "[model]") {
  Json body = {{"n", 3}, {"f", 3.0}, {"half", 2.5}, {"neg", -1}, {"big", 1e12}, {"s", "3"}};
  CHECK(*opt_count(body, "n", "n", 10).value() == 3);
  CHECK(*opt_count(body, "f", "f", 10).value() == 3);
  CHECK_FALSE(opt_count(body, "absent", "absent", 10).value());
  for (const char* key : {"half", "neg", "big", "s"}) {
    auto count = opt_count(body, key, key, 10);
    REQUIRE_FALSE(count.ok());
    CHECK(count.error().details["field"] == key);
  }
}

TEST_CASE("model::decode::opt_enum lower-cases and lists the choices when refusing", "[model]") {
  Json body = {{"mode", " Strict "}, {"bad", "loose"}, {"empty", " "}};
  CHECK(*opt_enum(body, "mode", "mode", {"prefer", "strict"}).value() == "strict");
  CHECK_FALSE(opt_enum(body, "empty", "empty", {"prefer", "strict"}).value());
  auto bad = opt_enum(body, "bad", "c.bad", {"prefer", "strict"});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message == "c.bad: expected one of prefer or strict, got \"loose\"");
}

TEST_CASE("model::decode::opt_strings and opt_string_map name the bad element", "[model]") {
  Json body = {{"list", {"a", 2}}, {"map", {{"k", "v"}, {"n", 1}}}};
  CHECK(opt_strings(body, "list", "list").error().details["field"] == "list[1]");
  CHECK(opt_string_map(body, "map", "map", 10).error().details["field"] == "map.n");
  CHECK(opt_string_map(body, "map", "map", 1).error().details["field"] == "map");
  CHECK(join_choices({"a", "b", "c"}) == "a, b or c");
  CHECK(path("", "x") == "x");
  CHECK(path("a", "x") == "a.x");
}
