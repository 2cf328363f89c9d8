#pragma once
// Registry authentication as the public registries do it: the registry
// answers 401 with `WWW-Authenticate: Bearer realm=…,service=…,scope=…`, the
// client asks the realm for a token (with the user's credentials when it has
// them) and retries with `Authorization: Bearer`. Credentials come from the
// auth files podman and docker write. Pure except read_credentials (reads files).
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace jgrid::api {

// A parsed WWW-Authenticate header: scheme ("bearer" or "basic", lower
// case) and its parameters (realm, service, scope).
struct AuthChallenge {
  std::string scheme;
  std::map<std::string, std::string> params;
};
std::optional<AuthChallenge> parse_auth_challenge(const std::string& header);

struct Credentials {
  std::string user, password;
};

// The credentials for `registry` ("docker.io", "ghcr.io", "127.0.0.1:5000")
// in the first of `files` that has them: {"auths": {"<host>": {"auth":
// base64("user:password")}}}; Docker Hub also under
// "https://index.docker.io/v1/". Unreadable or malformed files are skipped.
std::optional<Credentials> read_credentials(const std::vector<std::filesystem::path>& files,
                                            const std::string& registry);

// The auth files podman and docker write, in the order they are consulted.
std::vector<std::filesystem::path> default_auth_files();

std::string base64_encode(const std::string& data);
std::optional<std::string> base64_decode(const std::string& text);

}  // namespace jgrid::api
