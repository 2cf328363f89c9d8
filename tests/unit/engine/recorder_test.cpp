#include "engine/recorder.hpp"

#include <tuple>

#include "engine_fixture.hpp"

using namespace jgrid;
using jgrid::engine::LiveJob;
using jgrid::engine::Recorder;

TEST_CASE("engine::Recorder numbers events per job and across the server", "[engine]") {
  test::ManualClock clock;
  Recorder recorder(clock, 1024);
  recorder.continue_after(41);
  LiveJob a, b;
  a.job.id = "job_a";
  b.job.id = "job_b";
  a.job.phase = model::Phase::scheduling;
  store::WriteBatch batch;
  recorder.event(a, batch, {"job.assigned", "scheduler", "Assigned", {{"node_id", "n"}}});
  recorder.event(b, batch, {"job.queued", "scheduler", "Waiting"});
  recorder.event(a, batch, {"job.failed", "executor", "boom", {}, "error"});
  REQUIRE(batch.events.size() == 3);
  CHECK(batch.events[0].seq == 42);
  CHECK(batch.events[2].seq == 44);
  CHECK(batch.events[0].sequence == 1);
  CHECK(batch.events[1].sequence == 1);
  CHECK(batch.events[2].sequence == 2);
  CHECK(batch.events[0].phase == "scheduling");
  CHECK(batch.events[0].title.empty());  // the type's title, given by the encoding and the API form
  CHECK(model::event_to_api(batch.events[0])["title"] == "Node assigned");
  CHECK(batch.events[0].created_ms == clock.now_ms());
  CHECK(batch.events[2].level == "error");
  CHECK(batch.events[0].data["node_id"] == "n");
}

TEST_CASE("engine::EventDigest of a recorder's events equals the recorder's own digest", "[engine]") {
  test::ManualClock clock;
  Recorder keeping(clock, 1024), not_keeping(clock, 1024);
  not_keeping.keep_digest(false);
  LiveJob a, b, a2, b2;
  a.job.id = a2.job.id = "job_a";
  b.job.id = b2.job.id = "job_b";
  store::WriteBatch kept, streamed;
  for (auto [recorder, batch, x, y] : {std::tuple{&keeping, &kept, &a, &b}, std::tuple{&not_keeping, &streamed, &a2, &b2}}) {
    recorder->event(*y, *batch, {"job.queued", "scheduler", "Waiting"});
    recorder->event(*x, *batch, {"job.assigned", "scheduler", "Assigned job_a to n"});
    recorder->event(*y, *batch, {"job.failed", "executor", "job_b: boom", {}, "error"});
  }
  CHECK(streamed.events[0].ordinal == 1);  // b came first
  CHECK(streamed.events[1].ordinal == 2);
  CHECK(streamed.events[2].ordinal == 1);
  CHECK(not_keeping.digest().empty());
  CHECK(not_keeping.digested_events() == 0);
  engine::EventDigest digest;
  CHECK(digest.hex().empty());
  for (const auto& event : streamed.events) digest.add(event);
  CHECK(digest.events() == 3);
  CHECK(digest.hex() == keeping.digest());
  CHECK(digest.hex().size() == 64);
  // The job id in a message is its ordinal: other ids give the same lines.
  engine::EventDigest renamed;
  for (auto event : streamed.events) {
    auto swap = [](std::string& text) {
      for (auto at = text.find("job_"); at != std::string::npos; at = text.find("job_", at + 4)) text[at + 4] = 'z' - (text[at + 4] - 'a');
    };
    swap(event.job_id);
    swap(event.message);
    renamed.add(event);
  }
  CHECK(renamed.hex() == digest.hex());
  renamed.add(streamed.events[0]);
  CHECK(renamed.hex() != digest.hex());
}

TEST_CASE("engine::Recorder drops output past the bound with one platform line", "[engine]") {
  test::ManualClock clock;
  Recorder recorder(clock, 10);
  LiveJob live;
  live.job.id = "job_a";
  live.log_sequence = 7;  // continues a previous process
  store::WriteBatch batch;
  recorder.output(live, batch, "stdout", "1234");   // 5 bytes
  recorder.output(live, batch, "stderr", "abcd");   // 10 bytes: fits exactly
  recorder.output(live, batch, "stdout", "x");      // dropped, platform line
  recorder.output(live, batch, "stdout", "y");      // dropped silently
  REQUIRE(batch.logs.size() == 3);
  CHECK(batch.logs[0].sequence == 8);
  CHECK(batch.logs[1].category == "workload_stderr");
  CHECK(batch.logs[2].category == "platform");
  CHECK(batch.logs[2].stream == "system");
  CHECK(live.job.log_truncated);
  CHECK(live.dropped_lines == 2);
}
