#include <catch2/catch.hpp>

#include "jgrid/model/job_input.hpp"

using namespace jgrid::model;

TEST_CASE("model::mount_path puts inputs and scripts in their folders", "[model]") {
  JobInput input;
  input.filename = "data.csv";
  CHECK(mount_path(input) == "/workspace/inputs/data.csv");
  input.kind = "script";
  input.filename = "run.sh";
  CHECK(mount_path(input) == "/workspace/scripts/run.sh");
}

TEST_CASE("model::validate_filename accepts base names", "[model]") {
  for (const char* name : {"data.csv", "a", "run.sh", "weird name (1).txt", ".env", "données.txt"})
    CHECK(validate_filename(name, "filename").ok());
  CHECK(validate_filename(std::string(255, 'a'), "filename").ok());
}

TEST_CASE("model::validate_filename refuses paths and control characters, naming the field", "[model]") {
  std::vector<std::string> bad = {"", "a/b", "..\\x", "..", "a..b", std::string("a\0b", 3), "a\nb", "tab\tx",
                                  std::string(256, 'a'), "/etc/passwd", "x\x7f"};
  for (const auto& name : bad) {
    auto status = validate_filename(name, "upload.filename");
    INFO(name);
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().code == "INVALID_REQUEST");
    CHECK(status.error().details["field"] == "upload.filename");
    CHECK(status.error().message.rfind("upload.filename:", 0) == 0);
  }
}

TEST_CASE("model::job_input_to_api lists an input with mount path and readiness", "[model]") {
  JobInput input;
  input.id = "inp_1";
  input.filename = "data.csv";
  input.content_type = "text/csv";
  input.status = "ready";
  input.size_bytes = 10;
  input.sha256 = "abc";
  input.token = "upload-secret";
  input.created_ms = 1'790'000'000'000;
  nlohmann::json api = job_input_to_api(input);
  CHECK(api["input_id"] == "inp_1");
  CHECK(api["filename"] == "data.csv");
  CHECK(api["content_type"] == "text/csv");
  CHECK(api["kind"] == "input");
  CHECK(api["status"] == "ready");
  CHECK(api["ready"] == true);
  CHECK(api["size_bytes"] == 10);
  CHECK(api["sha256"] == "abc");
  CHECK(api["mount_path"] == "/workspace/inputs/data.csv");
  CHECK(api["created_at"] == "2026-09-21T14:13:20.000Z");
  CHECK(api.dump().find("upload-secret") == std::string::npos);
}

TEST_CASE("model::job_input_to_api reports a pending input with null size", "[model]") {
  JobInput input;
  input.id = "inp_2";
  input.filename = "x.bin";
  nlohmann::json api = job_input_to_api(input);
  CHECK(api["ready"] == false);
  CHECK(api["size_bytes"].is_null());
  CHECK_FALSE(api.contains("sha256"));
}
