#include "cli/serve_options.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>

#include "jgrid/util/ids.hpp"

using jgrid::cli::resolve_service_token;
using jgrid::cli::ServeOptions;
namespace fs = std::filesystem;

namespace {

struct TokenFile {
  fs::path path = fs::temp_directory_path() / ("jgrid-token-" + jgrid::util::random_hex(6));
  explicit TokenFile(const std::string& text) { std::ofstream(path) << text; }
  ~TokenFile() { fs::remove(path); }
};

}  // namespace

TEST_CASE("cli::resolve_service_token takes the flag, then the file, then the env var", "[cli]") {
  TokenFile file("  token_from_file_0001 \nsecond line\n");
  ServeOptions options;
  CHECK(resolve_service_token(options, nullptr).value().empty());
  CHECK(resolve_service_token(options, "").value().empty());
  CHECK(resolve_service_token(options, "token_from_env_00001").value() == "token_from_env_00001");
  options.service_token_file = file.path.string();
  CHECK(resolve_service_token(options, "token_from_env_00001").value() == "token_from_file_0001");
  options.service_token = "token_from_flag_0001";
  CHECK(resolve_service_token(options, "token_from_env_00001").value() == "token_from_flag_0001");
}

TEST_CASE("cli::resolve_service_token names the source of a bad token", "[cli]") {
  ServeOptions options;
  auto from_env = resolve_service_token(options, "short");
  REQUIRE_FALSE(from_env.ok());
  CHECK(from_env.error().code == "INVALID_OPTION");
  CHECK_THAT(from_env.error().message, Catch::StartsWith("JGRID_SERVICE_TOKEN:") && Catch::Contains("16"));

  options.service_token_file = "/nonexistent/token";
  auto missing = resolve_service_token(options, nullptr);
  REQUIRE_FALSE(missing.ok());
  CHECK_THAT(missing.error().message, Catch::StartsWith("--service-token-file:") && Catch::Contains("/nonexistent/token"));

  TokenFile empty("\n");
  options.service_token_file = empty.path.string();
  auto short_file = resolve_service_token(options, "token_from_env_00001");
  REQUIRE_FALSE(short_file.ok());
  CHECK_THAT(short_file.error().message, Catch::StartsWith("--service-token-file:") && Catch::Contains("16"));

  options.service_token = "short";
  auto flag = resolve_service_token(options, nullptr);
  REQUIRE_FALSE(flag.ok());
  CHECK_THAT(flag.error().message, Catch::StartsWith("--service-token:"));
}

TEST_CASE("cli::validate refuses durations, counts and sizes past their maximum, naming the option", "[cli]") {
  using Set = void (*)(ServeOptions&);
  struct Case {
    const char* option;
    Set over;   // just past the maximum (or an extreme)
    Set at;     // the maximum itself, accepted
  };
  const Case cases[] = {
      {"--max-attempts", [](ServeOptions& o) { o.max_attempts = 101; }, [](ServeOptions& o) { o.max_attempts = 100; }},
      {"--delay-threshold", [](ServeOptions& o) { o.delay_threshold_s = 1e16; },
       [](ServeOptions& o) { o.delay_threshold_s = 2'592'000; }},
      {"--delay-threshold", [](ServeOptions& o) { o.delay_threshold_s = std::nan(""); },
       [](ServeOptions& o) { o.delay_threshold_s = 0.001; }},
      {"--upload-ttl", [](ServeOptions& o) { o.upload_ttl_s = 2'592'001; },
       [](ServeOptions& o) { o.upload_ttl_s = 2'592'000; }},
      {"--time-scale", [](ServeOptions& o) { o.time_scale = 1e308; }, [](ServeOptions& o) { o.time_scale = 1e6; }},
      {"--callback-backoff-base-ms", [](ServeOptions& o) { o.callback_backoff_base_ms = 3'600'001; },
       [](ServeOptions& o) { o.callback_backoff_base_ms = 3'600'000; }},
      {"--max-stream-subscribers", [](ServeOptions& o) { o.max_stream_subscribers = 65537; },
       [](ServeOptions& o) { o.max_stream_subscribers = 65536; }},
      {"--max-connections", [](ServeOptions& o) { o.max_connections = 65537; },
       [](ServeOptions& o) { o.max_connections = 65536; }},
      {"--registry-cache-ttl", [](ServeOptions& o) { o.registry_cache_ttl_s = 31'536'001; },
       [](ServeOptions& o) { o.registry_cache_ttl_s = 31'536'000; }},
      {"--max-body", [](ServeOptions& o) { o.max_body = (1LL << 30) + 1; }, [](ServeOptions& o) { o.max_body = 1LL << 30; }},
      {"--max-upload", [](ServeOptions& o) { o.max_upload = (1LL << 40) + 1; },
       [](ServeOptions& o) { o.max_upload = 1LL << 40; }},
      {"--max-log-bytes", [](ServeOptions& o) { o.max_log_bytes = INT64_MAX; },
       [](ServeOptions& o) { o.max_log_bytes = 1LL << 40; }},
      {"--min-free-disk", [](ServeOptions& o) { o.min_free_disk = (1LL << 50) + 1; },
       [](ServeOptions& o) { o.min_free_disk = 1LL << 50; }},
  };
  for (const Case& c : cases) {
    INFO(c.option);
    ServeOptions at;
    c.at(at);
    CHECK(jgrid::cli::validate(at).ok());
    ServeOptions over;
    c.over(over);
    auto refused = jgrid::cli::validate(over);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().code == "INVALID_OPTION");
    CHECK_THAT(refused.error().message, Catch::StartsWith(std::string(c.option) + ": expected"));
  }
}
