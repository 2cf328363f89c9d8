#include <catch2/catch.hpp>

#include "jgrid/model/artifact.hpp"

using namespace jgrid::model;

TEST_CASE("model::content_type_for maps known extensions case-insensitively", "[model]") {
  CHECK(content_type_for("result.json") == "application/json");
  CHECK(content_type_for("notes.txt") == "text/plain");
  CHECK(content_type_for("run.log") == "text/plain");
  CHECK(content_type_for("table.CSV") == "text/csv");
  CHECK(content_type_for("plots/a.png") == "image/png");
  CHECK(content_type_for("photo.jpg") == "image/jpeg");
  CHECK(content_type_for("report.html") == "text/html");
  CHECK(content_type_for("data.parquet") == "application/vnd.apache.parquet");
  CHECK(content_type_for("arr.npy") == "application/x-npy");
  for (const char* binary : {"model.pt", "model.safetensors", "blob.bin", "noext", ".hidden", "dir.d/file", "x.zzz"})
    CHECK(content_type_for(binary) == "application/octet-stream");
}

TEST_CASE("model::artifact_to_api carries every docs/api.md artifact field", "[model]") {
  Artifact artifact{"art_1", "job_1", "plots/a.png", "image/png", 1234, "ab12", 1'790'000'000'000};
  nlohmann::json api = artifact_to_api(artifact);
  CHECK(api["artifact_id"] == "art_1");
  CHECK(api["id"] == "art_1");
  CHECK(api["job_id"] == "job_1");
  CHECK(api["filename"] == "plots/a.png");
  CHECK(api["name"] == "plots/a.png");
  CHECK(api["path"] == "/workspace/artifacts/plots/a.png");
  CHECK(api["content_type"] == "image/png");
  CHECK(api["mime_type"] == "image/png");
  CHECK(api["size_bytes"] == 1234);
  CHECK(api["sha256"] == "ab12");
  CHECK(api["status"] == "ready");
  CHECK(api["ready"] == true);
  CHECK(api["created_at"] == "2026-09-21T14:13:20.000Z");
  CHECK(api["uploaded_at"] == api["created_at"]);
}
