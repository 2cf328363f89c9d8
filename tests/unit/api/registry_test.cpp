#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <vector>

#include "api/registry_auth.hpp"
#include "api/registry_fetch.hpp"
#include "api/registry_ref.hpp"

using namespace jgrid::api;

TEST_CASE("registry refs follow Docker's rules for registry, repository and reference", "[registry]") {
  auto hub = parse_registry_ref("vllm/vllm-openai");
  REQUIRE(hub);
  CHECK(hub->registry == "docker.io");
  CHECK(hub->api_host == "registry-1.docker.io");
  CHECK(hub->repository == "vllm/vllm-openai");
  CHECK(hub->reference == "latest");

  auto official = parse_registry_ref("ubuntu:22.04");
  REQUIRE(official);
  CHECK(official->repository == "library/ubuntu");
  CHECK(official->reference == "22.04");

  auto local = parse_registry_ref("127.0.0.1:5000/team/trainer:1.4");
  REQUIRE(local);
  CHECK(local->registry == "127.0.0.1:5000");
  CHECK(local->api_host == "127.0.0.1:5000");
  CHECK(local->repository == "team/trainer");
  CHECK(local->reference == "1.4");

  auto localhost = parse_registry_ref("localhost/app");
  REQUIRE(localhost);
  CHECK(localhost->registry == "localhost");

  std::string digest = "sha256:" + std::string(64, 'a');
  auto pinned = parse_registry_ref("ghcr.io/org/app:1.0@" + digest);
  REQUIRE(pinned);
  CHECK(pinned->reference == digest);  // the digest decides
  CHECK(pinned->by_digest());

  auto index = parse_registry_ref("index.docker.io/library/busybox");
  REQUIRE(index);
  CHECK(index->registry == "docker.io");
}

TEST_CASE("registry refs refuse what no registry could serve", "[registry]") {
  for (const std::string& bad : std::vector<std::string>{"", "Upper/Case", "app:", "app:bad tag", "app@sha256:short", "ghcr.io/", "a//b", "app:" + std::string(129, 't')}) {
    INFO(bad);
    CHECK_FALSE(parse_registry_ref(bad));
  }
}

TEST_CASE("WWW-Authenticate challenges are parsed with quoted values", "[registry]") {
  auto challenge = parse_auth_challenge(
      R"(Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:library/ubuntu:pull")");
  REQUIRE(challenge);
  CHECK(challenge->scheme == "bearer");
  CHECK(challenge->params.at("realm") == "https://auth.docker.io/token");
  CHECK(challenge->params.at("service") == "registry.docker.io");
  CHECK(challenge->params.at("scope") == "repository:library/ubuntu:pull");

  auto escaped = parse_auth_challenge(R"(Bearer realm="http://h/t?a=\"b\"", service=svc)");
  REQUIRE(escaped);
  CHECK(escaped->params.at("realm") == "http://h/t?a=\"b\"");
  CHECK(escaped->params.at("service") == "svc");

  CHECK(parse_auth_challenge(R"(Basic realm="Registry")")->scheme == "basic");
  CHECK_FALSE(parse_auth_challenge(R"(Bearer service="x")"));  // a bearer challenge needs a realm
  CHECK_FALSE(parse_auth_challenge(R"(Bearer realm="unterminated)"));
  CHECK_FALSE(parse_auth_challenge("Negotiate abc"));
  CHECK_FALSE(parse_auth_challenge(""));
}

TEST_CASE("credentials come from the first auth file that has the registry", "[registry]") {
  auto dir = std::filesystem::temp_directory_path() / ("jgrid-auth-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return dir / name;
  };
  auto broken = write("broken.json", "{not json");
  auto podman = write("auth.json", R"({"auths": {"127.0.0.1:5000": {"auth": ")" + base64_encode("tester:s3:cret") +
                                       R"("}}})");
  auto docker = write("config.json", R"({"auths": {"https://index.docker.io/v1/": {"auth": ")" +
                                         base64_encode("hub:pw") + R"("}, "127.0.0.1:5000": {"auth": ")" +
                                         base64_encode("other:pw") + R"("}}})");
  auto local = read_credentials({broken, podman, docker}, "127.0.0.1:5000");
  REQUIRE(local);
  CHECK(local->user == "tester");
  CHECK(local->password == "s3:cret");  // only the first ':' splits
  auto hub = read_credentials({broken, podman, docker}, "docker.io");
  REQUIRE(hub);
  CHECK(hub->user == "hub");
  CHECK_FALSE(read_credentials({broken, podman, docker}, "ghcr.io"));
  CHECK_FALSE(read_credentials({dir / "missing.json"}, "ghcr.io"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("base64 round-trips and refuses foreign characters", "[registry]") {
  for (const std::string& text : std::vector<std::string>{"", "a", "ab", "abc", "tester:secret", std::string("\0\xff\x10", 3)}) {
    INFO(text);
    CHECK(base64_decode(base64_encode(text)) == text);
  }
  CHECK(base64_encode("tester:secret") == "dGVzdGVyOnNlY3JldA==");
  CHECK_FALSE(base64_decode("a*b"));
}

TEST_CASE("an index is followed to the platform's manifest", "[registry]") {
  std::string index = R"({"mediaType": "application/vnd.oci.image.index.v1+json", "manifests": [
    {"digest": "sha256:arm", "platform": {"os": "linux", "architecture": "arm64"}},
    {"digest": "sha256:amd", "platform": {"os": "linux", "architecture": "amd64"}},
    {"digest": "sha256:attestation", "platform": {"os": "unknown", "architecture": "unknown"}}]})";
  CHECK(pick_platform(index, "linux", "amd64") == "sha256:amd");
  CHECK(pick_platform(index, "linux", "arm64") == "sha256:arm");
  CHECK_FALSE(pick_platform(index, "windows", "amd64"));
  CHECK_FALSE(pick_platform("garbage", "linux", "amd64"));
  CHECK_FALSE(pick_platform(R"({"manifests": 3})", "linux", "amd64"));
}

TEST_CASE("labels and env are read from an image config", "[registry]") {
  auto image = parse_image_config(R"({"architecture": "amd64", "config": {
    "Labels": {"io.junglegrid.runtime": "rocm", "n": 3},
    "Env": ["PATH=/bin", "CUDA_VERSION=12.4.1", "EMPTY=", "=nokey", "novalue", 7]}})");
  REQUIRE(image);
  CHECK(image->source == "registry");
  CHECK(image->labels == std::map<std::string, std::string>{{"io.junglegrid.runtime", "rocm"}});
  CHECK(image->env == std::map<std::string, std::string>{{"PATH", "/bin"}, {"CUDA_VERSION", "12.4.1"}, {"EMPTY", ""}});
  auto bare = parse_image_config(R"({"architecture": "amd64"})");
  REQUIRE(bare);
  CHECK(bare->labels.empty());
  CHECK_FALSE(parse_image_config("\x00\x01garbage"));
  CHECK_FALSE(parse_image_config("[1, 2]"));
}
