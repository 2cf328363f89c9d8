#include "engine_fixture.hpp"

using namespace jgrid;
using jgrid::test::EngineFixture;
using jgrid::test::make_node;

TEST_CASE("engine::create_input validates the filename and kind", "[engine]") {
  EngineFixture f({make_node("one", "amd", 1)});
  auto input = f.engine->create_input("local", "data.csv", "text/csv", "input");
  REQUIRE(input);
  CHECK(input->id.rfind("inp_", 0) == 0);
  CHECK(input->status == "pending");
  CHECK(input->token.size() == 32);
  CHECK(input->expires_ms == f.clock->now_ms() + f.engine->options().upload_ttl_ms);
  CHECK(f.store->get_input(input->id));
  CHECK(f.engine->create_input("local", "run.sh", "", "")->kind == "input");

  auto bad_name = f.engine->create_input("local", "../etc/passwd", "", "input");
  REQUIRE_FALSE(bad_name);
  CHECK(bad_name.error().code == "INVALID_REQUEST");
  auto bad_kind = f.engine->create_input("local", "a.txt", "", "model");
  REQUIRE_FALSE(bad_kind);
  CHECK(bad_kind.error().code == "INVALID_REQUEST");
  CHECK(bad_kind.error().details["field"] == "kind");
}

TEST_CASE("engine::complete_input makes an uploaded input ready", "[engine]") {
  EngineFixture f({make_node("one", "amd", 1)});
  auto input = f.engine->create_input("local", "data.csv", "text/csv", "input");
  REQUIRE(input);
  SECTION("errors") {
    auto early = f.engine->complete_input("local", input->id, input->token, std::nullopt);
    REQUIRE_FALSE(early);
    CHECK(early.error().code == "JOB_INPUT_NOT_READY");
    REQUIRE(f.engine->record_upload(input->id, 5, "abc"));
    auto wrong_token = f.engine->complete_input("local", input->id, "nope", std::nullopt);
    REQUIRE_FALSE(wrong_token);
    CHECK(wrong_token.error().code == "FORBIDDEN");
    auto wrong_size = f.engine->complete_input("local", input->id, input->token, 6);
    REQUIRE_FALSE(wrong_size);
    CHECK(wrong_size.error().code == "INVALID_REQUEST");
    auto other = f.engine->complete_input("other", input->id, input->token, std::nullopt);
    REQUIRE_FALSE(other);
    CHECK(other.error().code == "NOT_FOUND");
    CHECK(f.engine->record_upload("inp_missing", 1, "x").error().code == "NOT_FOUND");
  }
  SECTION("success") {
    REQUIRE(f.engine->record_upload(input->id, 5, "abc"));
    auto ready = f.engine->complete_input("local", input->id, input->token, 5);
    REQUIRE(ready);
    CHECK(ready->status == "ready");
    CHECK(ready->size_bytes == 5);
    CHECK(ready->sha256 == "abc");
    CHECK(f.store->get_input(input->id)->status == "ready");
  }
}
