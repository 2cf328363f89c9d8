#pragma once
// Image references as a registry client needs them (Docker's rules): which
// host to ask, for which repository and reference. Pure.
#include <optional>
#include <string>

namespace jgrid::api {

struct RegistryRef {
  std::string registry;    // "docker.io", "ghcr.io", "127.0.0.1:5000"
  std::string api_host;    // where the /v2/ API lives: docker.io -> registry-1.docker.io
  std::string repository;  // "library/ubuntu", "org/app"
  std::string reference;   // a tag ("latest" when none) or a digest ("sha256:…")
  bool by_digest() const { return reference.rfind("sha256:", 0) == 0; }
};

// nullopt when `ref` is not a reference a registry could serve (empty,
// spaces, upper-case repository, a bad digest).
std::optional<RegistryRef> parse_registry_ref(const std::string& ref);

}  // namespace jgrid::api
