#include <filesystem>
#include <fstream>

#include "engine_fixture.hpp"
#include "jgrid/model/layout.hpp"

using namespace jgrid;
using jgrid::test::EngineFixture;
using jgrid::test::make_node;
namespace fs = std::filesystem;

namespace {

// Bytes as the api leaves them for record_upload: a file under the data dir.
fs::path received(EngineFixture& f, const std::string& bytes) {
  static int count = 0;
  fs::path path = f.data_dir / ("received-" + std::to_string(++count));
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string blob_of(EngineFixture& f, const std::string& input_id) {
  std::ifstream in(model::input_blob_path(f.data_dir, input_id), std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

engine::InputCompletion by_token(const model::JobInput& input, std::optional<std::int64_t> size = std::nullopt) {
  return {input.id, "", input.token, size};
}

}  // namespace

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
    auto early = f.engine->complete_input(by_token(*input));
    REQUIRE_FALSE(early);
    CHECK(early.error().code == "JOB_INPUT_NOT_READY");
    REQUIRE(f.engine->record_upload(input->id, received(f, "hello"), 5, "abc"));
    auto wrong_token = f.engine->complete_input({input->id, "", "nope", std::nullopt});
    REQUIRE_FALSE(wrong_token);
    CHECK(wrong_token.error().code == "FORBIDDEN");
    auto wrong_token_with_key = f.engine->complete_input({input->id, "local", "nope", std::nullopt});
    REQUIRE_FALSE(wrong_token_with_key);  // a token that is given must match, key or not
    CHECK(wrong_token_with_key.error().code == "FORBIDDEN");
    auto nothing = f.engine->complete_input({input->id, "", "", std::nullopt});
    REQUIRE_FALSE(nothing);
    CHECK(nothing.error().code == "FORBIDDEN");
    auto wrong_size = f.engine->complete_input(by_token(*input, 6));
    REQUIRE_FALSE(wrong_size);
    CHECK(wrong_size.error().code == "INVALID_REQUEST");
    auto other = f.engine->complete_input({input->id, "other", "", std::nullopt});
    REQUIRE_FALSE(other);
    CHECK(other.error().code == "NOT_FOUND");
    auto gone = received(f, "x");
    CHECK(f.engine->record_upload("inp_missing", gone, 1, "x").error().code == "NOT_FOUND");
    CHECK_FALSE(fs::exists(gone));
  }
  SECTION("with the upload token") {
    REQUIRE(f.engine->record_upload(input->id, received(f, "hello"), 5, "abc"));
    auto ready = f.engine->complete_input(by_token(*input, 5));
    REQUIRE(ready);
    CHECK(ready->status == "ready");
    CHECK(ready->size_bytes == 5);
    CHECK(ready->sha256 == "abc");
    CHECK(f.store->get_input(input->id)->status == "ready");
    CHECK(blob_of(f, input->id) == "hello");
  }
  SECTION("with an API key of its workspace and no token") {
    REQUIRE(f.engine->record_upload(input->id, received(f, "hello"), 5, "abc"));
    auto ready = f.engine->complete_input({input->id, "local", "", std::nullopt});
    REQUIRE(ready);
    CHECK(ready->status == "ready");
  }
}

TEST_CASE("engine::record_upload never changes the bytes of a ready input", "[engine]") {
  EngineFixture f({make_node("one", "amd", 1)});
  auto input = f.engine->create_input("local", "data.csv", "text/csv", "input");
  REQUIRE(f.engine->record_upload(input->id, received(f, "first"), 5, "sha-first"));
  REQUIRE(f.engine->complete_input(by_token(*input)));
  auto late = received(f, "second!");
  auto replaced = f.engine->record_upload(input->id, late, 7, "sha-second");
  REQUIRE_FALSE(replaced);
  CHECK(replaced.error().code == "CONFLICT");
  CHECK_FALSE(fs::exists(late));
  CHECK(blob_of(f, input->id) == "first");
  CHECK(f.store->get_input(input->id)->sha256 == "sha-first");
}

TEST_CASE("engine upload slots expire: refused after expires_at, then swept with their bytes", "[engine]") {
  EngineFixture f({make_node("one", "amd", 1)});
  auto pending = f.engine->create_input("local", "late.csv", "", "input");
  auto uploaded = f.engine->create_input("local", "half.csv", "", "input");
  auto ready = f.engine->create_input("local", "done.csv", "", "input");
  REQUIRE(f.engine->record_upload(uploaded->id, received(f, "half"), 4, "h"));
  REQUIRE(f.engine->record_upload(ready->id, received(f, "done"), 4, "d"));
  REQUIRE(f.engine->complete_input(by_token(*ready)));
  f.clock->advance(f.engine->options().upload_ttl_ms);

  auto put = f.engine->record_upload(pending->id, received(f, "x"), 1, "x");
  REQUIRE_FALSE(put);
  CHECK(put.error().code == "FORBIDDEN");
  CHECK(put.error().message.find("expired") != std::string::npos);
  auto complete = f.engine->complete_input(by_token(*uploaded));
  REQUIRE_FALSE(complete);
  CHECK(complete.error().code == "FORBIDDEN");
  CHECK(f.engine->check_upload_slot(*f.store->get_input(ready->id)).error().code == "CONFLICT");

  f.engine->sweep_expired_inputs();
  CHECK_FALSE(f.store->get_input(pending->id));
  CHECK_FALSE(f.store->get_input(uploaded->id));
  CHECK_FALSE(fs::exists(model::input_blob_path(f.data_dir, uploaded->id)));
  REQUIRE(f.store->get_input(ready->id));  // jobs use it: it stays
  CHECK(blob_of(f, ready->id) == "done");
}
