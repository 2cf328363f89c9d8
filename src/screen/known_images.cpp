#include "screen/known_images.hpp"

#include <string>

namespace jgrid::screen {
namespace {

// '*' matches any run of characters; everything else case-insensitively.
bool glob_matches(std::string_view pattern, std::string_view text) {
  if (pattern.empty()) return text.empty();
  if (pattern.front() == '*') {
    for (std::size_t skip = 0; skip <= text.size(); ++skip)
      if (glob_matches(pattern.substr(1), text.substr(skip))) return true;
    return false;
  }
  return !text.empty() && lower(pattern.front()) == lower(text.front()) &&
         glob_matches(pattern.substr(1), text.substr(1));
}

// "docker.io/library/ubuntu", "ghcr.io/org/app": the form patterns are written in.
std::string normalised_name(const ImageRef& ref) {
  if (!ref.docker_hub()) return std::string(ref.registry) + "/" + std::string(ref.repository);
  std::string repository(ref.repository);
  return repository.find('/') == std::string::npos ? "docker.io/library/" + repository : "docker.io/" + repository;
}

}  // namespace

bool matches_image_pattern(std::string_view pattern, const ImageRef& ref) {
  std::string_view name_pattern = pattern, tag_pattern;
  if (auto colon = pattern.rfind(':'); colon != std::string_view::npos && pattern.find('/', colon) == pattern.npos) {
    name_pattern = pattern.substr(0, colon);
    tag_pattern = pattern.substr(colon + 1);
  }
  std::string name = normalised_name(ref);
  bool name_ok = iends_with(name_pattern, "/*")
                     ? istarts_with(name, name_pattern.substr(0, name_pattern.size() - 1))
                     : iequals(name, name_pattern);
  if (!name_ok) return false;
  // A digest-only reference has no tag to judge: it matches every-tag patterns only.
  std::string_view tag = ref.tag.empty() && ref.digest.empty() ? std::string_view("latest") : ref.tag;
  return tag_pattern.empty() || glob_matches(tag_pattern, tag);
}

namespace {

bool family_matches(const KnownImageFamily& family, const ImageRef& ref) {
  bool matched = false;
  for (auto pattern : family.cuda_patterns) {
    if (!pattern.empty() && pattern.front() == '!') {
      if (matches_image_pattern(pattern.substr(1), ref)) return false;
    } else if (!matched) {
      matched = matches_image_pattern(pattern, ref);
    }
  }
  return matched;
}

}  // namespace

const KnownImageFamily* find_known_cuda_image(const ImageRef& ref) {
  for (const auto& family : known_image_families())
    if (family_matches(family, ref)) return &family;
  return nullptr;
}

}  // namespace jgrid::screen
