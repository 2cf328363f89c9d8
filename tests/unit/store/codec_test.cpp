#include "store/codec.hpp"

#include "store_fixtures.hpp"

using namespace jgrid;
using namespace jgrid::store;

TEST_CASE("store::encode_event and decode_event round-trip every field", "[store]") {
  auto event = testing::make_event(42, "job_0001", 3, "job.running");
  event.phase = "workload_execution";
  event.message = "started";
  event.source = "executor";
  event.level = "warning";
  auto back = decode_event(encode_event(event));
  REQUIRE(back);
  CHECK(back->seq == 42);
  CHECK(back->id == event.id);
  CHECK(back->job_id == "job_0001");
  CHECK(back->sequence == 3);
  CHECK(back->type == "job.running");
  CHECK(back->phase == event.phase);
  CHECK(back->title == event.title);
  CHECK(back->message == "started");
  CHECK(back->source == "executor");
  CHECK(back->level == "warning");
  CHECK(back->created_ms == event.created_ms);
  CHECK(back->data == event.data);
}

TEST_CASE("store::encode_artifact and decode_artifact round-trip every field", "[store]") {
  model::Artifact artifact{"art_1", "job_0001", "plots/a.png", "image/png", 1234, "ab12", 99};
  auto back = decode_artifact(encode_artifact(artifact));
  REQUIRE(back);
  CHECK(back->id == "art_1");
  CHECK(back->job_id == "job_0001");
  CHECK(back->filename == "plots/a.png");
  CHECK(back->content_type == "image/png");
  CHECK(back->size_bytes == 1234);
  CHECK(back->sha256 == "ab12");
  CHECK(back->created_ms == 99);
}

TEST_CASE("store::encode_input and decode_input keep an unknown size as unknown", "[store]") {
  model::JobInput input;
  input.id = "inp_1";
  input.workspace = "team";
  input.filename = "data.csv";
  input.kind = "script";
  input.token = "secret";
  input.expires_ms = 5;
  input.created_ms = 4;
  auto pending = decode_input(encode_input(input));
  REQUIRE(pending);
  CHECK_FALSE(pending->size_bytes);
  CHECK(pending->workspace == "team");
  CHECK(pending->kind == "script");
  CHECK(pending->status == "pending");
  CHECK(pending->token == "secret");
  CHECK(pending->expires_ms == 5);

  input.size_bytes = 0;
  input.status = "ready";
  auto ready = decode_input(encode_input(input));
  REQUIRE(ready);
  REQUIRE(ready->size_bytes);
  CHECK(*ready->size_bytes == 0);
  CHECK(ready->status == "ready");
}

TEST_CASE("store::encode_job leaves the tails to their columns", "[store]") {
  auto job = testing::make_job(1);
  job.stdout_tail = "out\n";
  job.stderr_tail = "err\n";
  const auto doc = nlohmann::json::parse(encode_job(job));
  CHECK_FALSE(doc.contains("stdout_tail"));
  CHECK_FALSE(doc.contains("stderr_tail"));
  auto back = decode_job(encode_job(job), job.stdout_tail, job.stderr_tail);
  REQUIRE(back);
  CHECK(back->id == job.id);
  CHECK(back->stdout_tail == "out\n");
  CHECK(back->stderr_tail == "err\n");
}

TEST_CASE("store::valid_utf8 keeps valid text and replaces what is not UTF-8", "[store]") {
  const std::string replacement = "\xEF\xBF\xBD";
  const std::string valid = "h\xC3\xA9llo \xE2\x9C\x93 \xF0\x9F\x98\x80";
  CHECK(valid_utf8(valid) == valid);
  CHECK(valid_utf8("ok \xff end") == "ok " + replacement + " end");
  CHECK(valid_utf8("cut \xE2\x9C") == "cut " + replacement + replacement);
  CHECK(valid_utf8("\xC0\xAF") == replacement + replacement);          // overlong '/'
  CHECK(valid_utf8("\xED\xA0\x80") == replacement + replacement + replacement);  // surrogate
  CHECK(valid_utf8("\xF4\x90\x80\x80").find(replacement) == 0);        // above U+10FFFF
}

TEST_CASE("store::repair_text repairs tails and log lines only", "[store]") {
  WriteBatch batch = testing::jobs_batch({testing::make_job(1)});
  batch.jobs[0].stdout_tail = "a\xff";
  batch.jobs[0].spec.edit().name = "n\xff";
  batch.logs = {testing::make_log("job_0001", 1)};
  batch.logs[0].message = "\xfe";
  repair_text(batch);
  CHECK(batch.jobs[0].stdout_tail == "a\xEF\xBF\xBD");
  CHECK(batch.jobs[0].spec->name == "n\xff");
  CHECK(batch.logs[0].message == "\xEF\xBF\xBD");
}

TEST_CASE("store::decode_* return nothing for damaged documents", "[store]") {
  CHECK_FALSE(decode_job("{not json"));
  CHECK_FALSE(decode_event("{\"id\": \"evt_1\"}"));
  CHECK_FALSE(decode_artifact("[]"));
  CHECK_FALSE(decode_input("{\"id\": 5, \"filename\": \"x\"}"));
}
