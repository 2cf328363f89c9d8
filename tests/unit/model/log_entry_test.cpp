#include <catch2/catch.hpp>

#include "jgrid/model/log_entry.hpp"

using namespace jgrid::model;

TEST_CASE("model::log_entry_to_api sets every field, entry_id is the sequence as a string", "[model]") {
  LogEntry entry{"job_1", 42, "stdout", "workload_stdout", "workload", "hello", false, 1'790'000'000'000};
  nlohmann::json api = log_entry_to_api(entry);
  CHECK(api == nlohmann::json{{"entry_id", "42"},
                              {"sequence", 42},
                              {"stream", "stdout"},
                              {"category", "workload_stdout"},
                              {"source", "workload"},
                              {"level", "info"},
                              {"message", "hello"},
                              {"truncated", false},
                              {"created_at", "2026-09-21T14:13:20.000Z"},
                              {"timestamp", "2026-09-21T14:13:20.000Z"}});
}

TEST_CASE("model::log_entry_to_api levels stderr as error and platform as info", "[model]") {
  LogEntry err{"job_1", 1, "stderr", "workload_stderr", "workload", "boom", true, 0};
  CHECK(log_entry_to_api(err)["level"] == "error");
  CHECK(log_entry_to_api(err)["truncated"] == true);
  LogEntry platform{"job_1", 2, "system", "platform", "platform", "pulled", false, 0};
  CHECK(log_entry_to_api(platform)["level"] == "info");
}
