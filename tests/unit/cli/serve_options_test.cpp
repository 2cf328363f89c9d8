#include "cli/serve_options.hpp"

#include <catch2/catch.hpp>
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
