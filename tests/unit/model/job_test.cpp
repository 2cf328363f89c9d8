#include <catch2/catch.hpp>

#include "jgrid/model/job.hpp"
#include "job_fixture.hpp"

using namespace jgrid::model;
using namespace jgrid::model::test;

TEST_CASE("model::job_to_doc round trips a job with every member set", "[model]") {
  Job job = failed_job();
  Json doc = job_to_doc(job);
  auto back = job_from_doc(Json::parse(doc.dump()));
  REQUIRE(back.ok());
  CHECK(job_to_doc(back.value()) == doc);
  CHECK(back->id == job.id);
  CHECK(back->workspace == "w1");
  CHECK(back->status == JobStatus::failed);
  CHECK(back->phase == Phase::done);
  CHECK(back->started_ms == job.started_ms);
  CHECK(back->exit_code == 3);
  REQUIRE(back->placement);
  CHECK(back->placement->gpu_indices == std::vector<int>{3});
  CHECK(back->placement->score == 0.75);
  REQUIRE(back->failure);
  CHECK(back->failure->code == "NONZERO_EXIT");
  REQUIRE(back->delay);
  CHECK(back->delay->message == "waiting for an MI300X");
  REQUIRE(back->callback);
  CHECK(back->callback->attempts == 8);
  CHECK(back->actual_cost_usd == job.actual_cost_usd);
  CHECK(back->spec->environment == job.spec->environment);
  CHECK(back->request_hash == "deadbeef");
}

TEST_CASE("model::job_to_doc round trips a fresh job with no optionals", "[model]") {
  Job job = queued_job();
  auto back = job_from_doc(job_to_doc(job));
  REQUIRE(back.ok());
  CHECK_FALSE(back->started_ms);
  CHECK_FALSE(back->completed_ms);
  CHECK_FALSE(back->placement);
  CHECK_FALSE(back->exit_code);
  CHECK_FALSE(back->failure);
  CHECK_FALSE(back->delay);
  CHECK_FALSE(back->callback);
  CHECK_FALSE(back->actual_cost_usd);
  CHECK(job_to_doc(back.value()) == job_to_doc(job));
}

TEST_CASE("model::job_from_doc refuses documents it did not write", "[model]") {
  CHECK(job_from_doc(Json("job")).error().code == "INTERNAL");
  Json doc = job_to_doc(queued_job());
  doc["status"] = "exploded";
  CHECK(job_from_doc(doc).error().code == "INTERNAL");
  doc = job_to_doc(queued_job());
  doc["phase"] = "nowhere";
  CHECK(job_from_doc(doc).error().code == "INTERNAL");
  doc = job_to_doc(queued_job());
  doc.erase("attempts");
  CHECK(job_from_doc(doc).error().code == "INTERNAL");
  doc = job_to_doc(queued_job());
  doc["spec"].erase("image");
  CHECK(job_from_doc(doc).error().code == "INTERNAL");
}

TEST_CASE("model::append_tail keeps everything under the limit", "[model]") {
  std::string tail;
  append_tail(tail, "a\n");
  append_tail(tail, "b\n");
  CHECK(tail == "a\nb\n");
}

TEST_CASE("model::append_tail keeps the last 8 KiB starting at a line", "[model]") {
  std::string tail;
  for (int i = 0; i < 2000; ++i) append_tail(tail, "line " + std::to_string(i) + "\n");
  CHECK(tail.size() <= k_tail_bytes);
  CHECK(tail.size() > k_tail_bytes - 20);
  CHECK(tail.rfind("line ", 0) == 0);
  CHECK(tail.size() >= std::string("line 1999\n").size());
  CHECK(tail.substr(tail.size() - 10) == "line 1999\n");
}

TEST_CASE("model::append_tail cuts a single long line to exactly 8 KiB", "[model]") {
  std::string tail;
  append_tail(tail, std::string(10'000, 'x') + "y");
  CHECK(tail.size() == k_tail_bytes);
  CHECK(tail.back() == 'y');
}

TEST_CASE("model::append_tail does not cut inside a UTF-8 character", "[model]") {
  std::string tail;
  std::string text;
  while (text.size() < k_tail_bytes + 7) text += "\xC3\xA9";  // é
  append_tail(tail, "z" + text);
  CHECK(tail.size() <= k_tail_bytes);
  CHECK((static_cast<unsigned char>(tail[0]) & 0xC0) != 0x80);
}
