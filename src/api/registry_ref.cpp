#include "registry_ref.hpp"

#include <algorithm>
#include <cctype>

namespace jgrid::api {
namespace {

// Docker: the first component names a registry when it has a '.' or a ':'
// or is "localhost"; otherwise the image is on Docker Hub.
bool names_registry(const std::string& component) {
  return component == "localhost" || component.find_first_of(".:") != std::string::npos;
}

bool valid_repository(const std::string& repository) {
  if (repository.empty() || repository.front() == '/' || repository.back() == '/') return false;
  if (repository.find("//") != std::string::npos) return false;
  return std::all_of(repository.begin(), repository.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) ||
           c == '/' || c == '.' || c == '_' || c == '-';
  });
}

bool valid_tag(const std::string& tag) {
  return !tag.empty() && tag.size() <= 128 && std::all_of(tag.begin(), tag.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
  });
}

bool valid_digest(const std::string& digest) {
  return digest.size() == 71 && digest.rfind("sha256:", 0) == 0 &&
         digest.find_first_not_of("0123456789abcdef", 7) == std::string::npos;
}

}  // namespace

std::optional<RegistryRef> parse_registry_ref(const std::string& text) {
  std::string rest = text;
  RegistryRef ref;
  if (auto at = rest.find('@'); at != std::string::npos) {
    ref.reference = rest.substr(at + 1);
    rest.resize(at);
    if (!valid_digest(ref.reference)) return std::nullopt;
  }
  if (auto slash = rest.find('/'); slash != std::string::npos && names_registry(rest.substr(0, slash))) {
    ref.registry = rest.substr(0, slash);
    rest = rest.substr(slash + 1);
  } else {
    ref.registry = "docker.io";
  }
  if (auto colon = rest.rfind(':'); colon != std::string::npos && rest.find('/', colon) == std::string::npos) {
    std::string tag = rest.substr(colon + 1);
    rest.resize(colon);
    if (!valid_tag(tag)) return std::nullopt;
    if (ref.reference.empty()) ref.reference = tag;  // name:tag@digest: the digest decides
  }
  if (ref.reference.empty()) ref.reference = "latest";
  if (ref.registry == "index.docker.io" || ref.registry == "registry-1.docker.io") ref.registry = "docker.io";
  if (ref.registry == "docker.io" && rest.find('/') == std::string::npos) rest = "library/" + rest;
  if (!valid_repository(rest)) return std::nullopt;
  ref.repository = rest;
  ref.api_host = ref.registry == "docker.io" ? "registry-1.docker.io" : ref.registry;
  return ref;
}

}  // namespace jgrid::api
