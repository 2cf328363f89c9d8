#include "jgrid/model/layout.hpp"

#include <catch2/catch.hpp>

using jgrid::model::job_dir;
namespace fs = std::filesystem;

TEST_CASE("model::job_dir is <data-dir>/jobs/<id> as path's own / would write it", "[model]") {
  for (const char* data_dir : {"/var/lib/jgrid", "/var/lib/jgrid/", "relative/dir", "", "/"}) {
    fs::path expected = fs::path(data_dir) / "jobs" / "job_01ABC";
    CHECK(job_dir(data_dir, "job_01ABC").native() == expected.native());
    CHECK(job_dir(data_dir, "job_01ABC") == expected);
  }
  CHECK(jgrid::model::job_artifacts_dir("/d", "job_1") == fs::path("/d/jobs/job_1/artifacts"));
}
