#include "cli/remote.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>

using namespace jgrid::cli;

namespace {

// Sets or clears the URL and key variables for one test.
void clear_env() {
  for (const char* name : {"JUNGLE_GRID_API", "JUNGLE_GRID_API_URL", "JUNGLEGRID_API_BASE", "JUNGLE_GRID_API_KEY",
                           "JUNGLEGRID_API_KEY"})
    ::unsetenv(name);
}

struct Env {
  Env(std::initializer_list<std::pair<const char*, const char*>> values) {
    clear_env();
    for (const auto& [name, value] : values) ::setenv(name, value, 1);
  }
  ~Env() { clear_env(); }
};

}  // namespace

TEST_CASE("cli::resolve_url takes --url, then the variables in order, then the default", "[cli]") {
  RemoteFlags flags;
  {
    Env env({});
    CHECK(resolve_url(flags) == "http://127.0.0.1:8420");
  }
  {
    Env env({{"JUNGLEGRID_API_BASE", "http://c:3"}, {"JUNGLE_GRID_API_URL", "http://b:2"}});
    CHECK(resolve_url(flags) == "http://b:2");
  }
  {
    Env env({{"JUNGLEGRID_API_BASE", "http://c:3"}, {"JUNGLE_GRID_API", "http://a:1"}});
    CHECK(resolve_url(flags) == "http://a:1");
    flags.url = "http://flag:9";
    CHECK(resolve_url(flags) == "http://flag:9");
  }
}

TEST_CASE("cli::resolve_api_key takes --api-key, then JUNGLE_GRID_API_KEY, then JUNGLEGRID_API_KEY", "[cli]") {
  RemoteFlags flags;
  Env env({{"JUNGLEGRID_API_KEY", "jg_b"}});
  CHECK(resolve_api_key(flags) == "jg_b");
  ::setenv("JUNGLE_GRID_API_KEY", "jg_a", 1);
  CHECK(resolve_api_key(flags) == "jg_a");
  flags.api_key = "jg_flag";
  CHECK(resolve_api_key(flags) == "jg_flag");
}

TEST_CASE("cli::read_request names the file that is missing or not a JSON object", "[cli]") {
  auto missing = read_request("/nonexistent/job.json");
  REQUIRE(!missing.ok());
  CHECK(missing.error().message.find("/nonexistent/job.json") != std::string::npos);
}

TEST_CASE("cli::text_of shows strings bare and missing or null fields as a dash", "[cli]") {
  Json job = {{"name", "a"}, {"exit_code", nullptr}, {"gpu_count", 2}};
  CHECK(text_of(job, "name") == "a");
  CHECK(text_of(job, "exit_code") == "-");
  CHECK(text_of(job, "missing") == "-");
  CHECK(text_of(job, "gpu_count") == "2");
  CHECK(path_segment("job/1") == "job%2F1");
}
