#include "store_fixtures.hpp"

using namespace jgrid;
using namespace jgrid::store;

namespace {

model::JobInput make_input(const std::string& id, const std::string& kind, const std::string& status) {
  model::JobInput input;
  input.id = id;
  input.filename = id + ".bin";
  input.kind = kind;
  input.status = status;
  return input;
}

std::vector<std::string> ids_of(const std::vector<model::JobInput>& inputs) {
  std::vector<std::string> ids;
  for (const auto& input : inputs) ids.push_back(input.id);
  return ids;
}

}  // namespace

TEST_CASE("store::list_artifacts lists the artifacts of one job by id", "[store]") {
  auto store = testing::open_store(":memory:");
  WriteBatch batch;
  batch.artifacts = {{"art_2", "job_a", "b.txt", "text/plain", 2, "h2", 2},
                     {"art_1", "job_a", "a.txt", "text/plain", 1, "h1", 1},
                     {"art_3", "job_b", "c.txt", "text/plain", 3, "h3", 3}};
  REQUIRE(store->commit(std::move(batch)).ok());
  auto artifacts = store->list_artifacts("job_a");
  REQUIRE(artifacts.size() == 2);
  CHECK(artifacts[0].id == "art_1");
  CHECK(artifacts[1].filename == "b.txt");
  CHECK(store->get_artifact("art_3")->job_id == "job_b");
  CHECK_FALSE(store->get_artifact("art_9"));
  CHECK(store->list_artifacts("job_c").empty());
}

TEST_CASE("store::commit upserts inputs by id", "[store]") {
  auto store = testing::open_store(":memory:");
  auto input = make_input("inp_1", "input", "pending");
  WriteBatch first;
  first.inputs = {input};
  REQUIRE(store->commit(std::move(first)).ok());
  input.status = "ready";
  input.size_bytes = 10;
  WriteBatch second;
  second.inputs = {input};
  REQUIRE(store->commit(std::move(second)).ok());
  auto back = store->get_input("inp_1");
  REQUIRE(back);
  CHECK(back->status == "ready");
  CHECK(back->size_bytes == 10);
  CHECK(store->list_inputs(InputQuery{}).size() == 1);
  CHECK_FALSE(store->get_input("inp_2"));
}

TEST_CASE("store::list_inputs pages oldest first and filters by kind and status", "[store]") {
  auto store = testing::open_store(":memory:");
  WriteBatch batch;
  batch.inputs = {make_input("inp_1", "input", "ready"), make_input("inp_2", "script", "ready"),
                  make_input("inp_3", "input", "pending"), make_input("inp_4", "input", "ready")};
  batch.inputs[3].workspace = "other";
  REQUIRE(store->commit(std::move(batch)).ok());
  InputQuery query;
  query.limit = 2;
  CHECK(ids_of(store->list_inputs(query)) == std::vector<std::string>{"inp_1", "inp_2"});
  query.after_id = "inp_2";
  CHECK(ids_of(store->list_inputs(query)) == std::vector<std::string>{"inp_3"});
  query = InputQuery{};
  query.kind = "input";
  query.status = "ready";
  CHECK(ids_of(store->list_inputs(query)) == std::vector<std::string>{"inp_1"});
  query.workspace = "other";
  CHECK(ids_of(store->list_inputs(query)) == std::vector<std::string>{"inp_4"});
}

TEST_CASE("store::get_setting returns the last value set", "[store]") {
  auto store = testing::open_store(":memory:");
  WriteBatch batch;
  batch.settings = {{"maintenance", "off"}, {"maintenance", "on"}, {"other", "x"}};
  REQUIRE(store->commit(std::move(batch)).ok());
  CHECK(store->get_setting("maintenance") == "on");
  CHECK(store->get_setting("other") == "x");
  CHECK_FALSE(store->get_setting("missing"));
}
