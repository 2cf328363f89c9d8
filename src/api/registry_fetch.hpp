#pragma once
// One image's metadata fetched over the OCI distribution API: manifest (an
// index or manifest list followed to one platform's manifest), then the
// config blob; labels, env and the digest are read from them. No layers.
// Blocking: call from a lookup thread.
#include <chrono>
#include <optional>
#include <string>

#include "jgrid/exec/fleet.hpp"
#include "jgrid/util/result.hpp"
#include "registry_auth.hpp"
#include "registry_ref.hpp"

namespace jgrid::api {

struct FetchSettings {
  bool plain_http = false;  // --insecure-registry: http:// instead of https://
  std::string ca_file;      // CA bundle for https ("" : the system store)
  std::optional<Credentials> credentials;
  std::string os = "linux", architecture = "amd64";
  std::chrono::milliseconds timeout{15000};  // per request
};

// The image's labels, env and digest (source "registry"). Errors:
// IMAGE_NOT_FOUND (the registry says there is no such image, or no access
// to it) and REGISTRY_FAILED (unreachable, refused, or not an image), each
// with a message that names the registry and what went wrong.
Result<exec::ImageInfo> fetch_image_metadata(const RegistryRef& ref, const FetchSettings& settings);

// Reads labels and env from a config blob (OCI image config / Docker
// container config). Errors REGISTRY_FAILED when it is not one.
Result<exec::ImageInfo> parse_image_config(const std::string& body);

// The manifest digest of `os`/`architecture` in an index or manifest list;
// nullopt when none matches.
std::optional<std::string> pick_platform(const std::string& index_body, const std::string& os,
                                         const std::string& architecture);

}  // namespace jgrid::api
