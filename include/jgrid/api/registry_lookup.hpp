#pragma once
// The registry client: image metadata without pulling layers. The manifest
// (an index or manifest list followed to one platform's manifest) and the
// config blob over the OCI distribution API, with the registries' bearer
// token auth (WWW-Authenticate challenge) and credentials from the user's
// registry auth files; HTTPS verified against the system store unless the
// host is listed as insecure (then plain HTTP). Results are cached on disk by
// digest, tags for a TTL. Implements exec::ImageLookup.
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "jgrid/exec/image_lookup.hpp"

namespace jgrid::api {

struct RegistryOptions {
  std::filesystem::path cache_dir;          // where results are kept; empty: memory only
  std::vector<std::string> insecure_hosts;  // "host[:port]" spoken to over plain HTTP
  std::string ca_file;                      // CA bundle for https ("" : the system store)
  std::chrono::seconds tag_ttl{3600};       // how long a tag's digest is trusted
  // Per request of a lookup (a lookup makes up to four); past any caller's bound.
  std::chrono::milliseconds fetch_timeout{10000};
  // Registry auth files, first match wins. Default (empty): the ones podman
  // and docker write: ${XDG_RUNTIME_DIR}/containers/auth.json,
  // ~/.config/containers/auth.json, ~/.docker/config.json.
  std::vector<std::filesystem::path> auth_files;
  std::string os = "linux", architecture = "amd64";  // the platform picked from an index
};

std::shared_ptr<exec::ImageLookup> make_registry_lookup(RegistryOptions options);

}  // namespace jgrid::api
