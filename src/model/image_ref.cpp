#include "jgrid/model/image_ref.hpp"

#include <algorithm>

namespace jgrid::model {
namespace {

constexpr std::size_t k_max_shown_chars = 80;

bool is_lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool is_alnum(char c) { return is_lower_alnum(c) || (c >= 'A' && c <= 'Z'); }
bool is_word(char c) { return is_alnum(c) || c == '_'; }
bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

bool names_registry(std::string_view component) {
  return component == "localhost" || component.find_first_of(".:") != std::string_view::npos;
}

// The text as quoted in a message: cut short, so a 4 KiB reference does not
// come back whole.
std::string shown(std::string_view text) {
  if (text.size() <= k_max_shown_chars) return std::string(text);
  return std::string(text.substr(0, k_max_shown_chars)) + "…";
}

Error refuse(const std::string& field, const char* part, const std::string& problem) {
  return make_error("INVALID_REQUEST", field + ": " + problem, Json{{"field", field}, {"part", part}});
}

// component := [a-z0-9]+ ((\.|_|__|-+) [a-z0-9]+)*
bool valid_path_component(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t start = i;
    while (i < text.size() && is_lower_alnum(text[i])) ++i;
    if (i == start) return false;  // empty run: at the start, or two separators in a row
    if (i == text.size()) return true;
    std::size_t sep = i;
    while (i < text.size() && !is_lower_alnum(text[i])) ++i;
    std::string_view separator = text.substr(sep, i - sep);
    bool dashes = separator.find_first_not_of('-') == std::string_view::npos;
    if (!(separator == "." || separator == "_" || separator == "__" || dashes)) return false;
    if (i == text.size()) return false;  // ends with a separator
  }
  return false;  // empty
}

bool valid_repository(std::string_view repository) {
  std::size_t start = 0;
  for (std::size_t i = 0; i <= repository.size(); ++i) {
    if (i < repository.size() && repository[i] != '/') continue;
    if (!valid_path_component(repository.substr(start, i - start))) return false;
    start = i + 1;
  }
  return true;
}

// domain-component := [a-zA-Z0-9] | [a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]
bool valid_host_label(std::string_view label) {
  if (label.empty() || !is_alnum(label.front()) || !is_alnum(label.back())) return false;
  return std::all_of(label.begin(), label.end(), [](char c) { return is_alnum(c) || c == '-'; });
}

bool valid_host(std::string_view host) {
  if (host.size() > 2 && host.front() == '[' && host.back() == ']')  // an IPv6 literal
    return std::all_of(host.begin() + 1, host.end() - 1,
                       [](char c) { return is_hex(c) || (c >= 'A' && c <= 'F') || c == ':' || c == '.'; });
  std::size_t start = 0;
  for (std::size_t i = 0; i <= host.size(); ++i) {
    if (i < host.size() && host[i] != '.') continue;
    if (!valid_host_label(host.substr(start, i - start))) return false;
    start = i + 1;
  }
  return true;
}

bool valid_registry(std::string_view registry) {
  std::size_t colon = registry.rfind(':');
  if (colon == std::string_view::npos || registry.find(']', colon) != std::string_view::npos)
    return valid_host(registry);
  std::string_view port = registry.substr(colon + 1);
  bool digits = !port.empty() && port.size() <= 5 && std::all_of(port.begin(), port.end(), [](char c) {
    return c >= '0' && c <= '9';
  });
  return digits && valid_host(registry.substr(0, colon));
}

// tag := [\w][\w.-]{0,127}
bool valid_tag(std::string_view tag) {
  if (tag.empty() || tag.size() > k_max_image_tag_chars || !is_word(tag.front())) return false;
  return std::all_of(tag.begin(), tag.end(), [](char c) { return is_word(c) || c == '.' || c == '-'; });
}

bool valid_digest(std::string_view digest) {
  constexpr std::string_view prefix = "sha256:";
  return digest.size() == prefix.size() + 64 && digest.substr(0, prefix.size()) == prefix &&
         std::all_of(digest.begin() + prefix.size(), digest.end(), is_hex);
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

Status check_repository(std::string_view repository, const std::string& field) {
  if (repository.empty()) return refuse(field, "repository", "the repository name is empty");
  if (valid_repository(repository)) return Ok{};
  std::string quoted = "'" + shown(repository) + "'";
  if (valid_repository(lower(repository)))
    return refuse(field, "repository",
                  "repository " + quoted + " has upper-case letters, which OCI references (and docker) refuse: use '" +
                      shown(lower(repository)) + "'");
  return refuse(field, "repository",
                "repository " + quoted +
                    " is not valid: each '/'-separated component is lower-case letters and digits, joined by '.', "
                    "'_', '__' or dashes, starting and ending with a letter or digit");
}

}  // namespace

ImageRefParts split_image_ref(std::string_view ref) {
  ImageRefParts out;
  if (auto at = ref.find('@'); at != std::string_view::npos) {
    out.digest = ref.substr(at + 1);
    out.has_digest = true;
    ref = ref.substr(0, at);
  }
  if (auto slash = ref.find('/'); slash != std::string_view::npos && names_registry(ref.substr(0, slash))) {
    out.registry = ref.substr(0, slash);
    ref = ref.substr(slash + 1);
  }
  if (auto colon = ref.rfind(':'); colon != std::string_view::npos && ref.find('/', colon) == std::string_view::npos) {
    out.tag = ref.substr(colon + 1);
    out.has_tag = true;
    ref = ref.substr(0, colon);
  }
  out.repository = ref;
  return out;
}

Status check_image_ref(std::string_view ref, const std::string& field) {
  if (ref.size() > k_max_image_bytes)
    return refuse(field, "reference",
                  "expected at most " + std::to_string(k_max_image_bytes) + " bytes, got " + std::to_string(ref.size()));
  ImageRefParts parts = split_image_ref(ref);
  if (!parts.registry.empty() && !valid_registry(parts.registry))
    return refuse(field, "registry",
                  "registry '" + shown(parts.registry) +
                      "' is not a valid host[:port]: dot-separated letters, digits and '-', then an optional port");
  if (auto repository = check_repository(parts.repository, field); !repository) return repository;
  std::size_t name_chars = parts.registry.size() + (parts.registry.empty() ? 0 : 1) + parts.repository.size();
  if (name_chars > k_max_image_name_chars)
    return refuse(field, "repository",
                  "the name (registry and repository) has " + std::to_string(name_chars) + " characters, at most " +
                      std::to_string(k_max_image_name_chars) + " are allowed");
  if (parts.has_tag && !valid_tag(parts.tag))
    return refuse(field, "tag",
                  "tag '" + shown(parts.tag) + "' is not a valid tag: letters, digits, '_', '.', '-', at most " +
                      std::to_string(k_max_image_tag_chars) + ", not starting with '.' or '-'");
  if (parts.has_digest && !valid_digest(parts.digest))
    return refuse(field, "digest",
                  "digest '" + shown(parts.digest) + "' is not valid: expected sha256: and 64 lower-case hex digits");
  return Ok{};
}

}  // namespace jgrid::model
