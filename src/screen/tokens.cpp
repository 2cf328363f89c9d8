#include "screen/tokens.hpp"

#include "jgrid/model/image_ref.hpp"

namespace jgrid::screen {

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

bool istarts_with(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && iequals(text.substr(0, prefix.size()), prefix);
}

bool iends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && iequals(text.substr(text.size() - suffix.size()), suffix);
}

std::size_t ifind(std::string_view text, std::string_view needle, std::size_t from) {
  if (needle.empty()) return from <= text.size() ? from : std::string_view::npos;
  for (std::size_t i = from; i + needle.size() <= text.size(); ++i)
    if (lower(text[i]) == lower(needle[0]) && iequals(text.substr(i, needle.size()), needle)) return i;
  return std::string_view::npos;
}

bool all_digits(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text)
    if (c < '0' || c > '9') return false;
  return true;
}

bool is_command_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
         c == '+' || c == '-';
}

bool ImageRef::docker_hub() const {
  return registry.empty() || iequals(registry, "docker.io") || iequals(registry, "index.docker.io") ||
         iequals(registry, "registry-1.docker.io");
}

// The split is model::split_image_ref's (the one reader of references);
// screening reads Docker Hub's "library/" as if it were not there.
ImageRef parse_image_ref(std::string_view ref) {
  model::ImageRefParts parts = model::split_image_ref(ref);
  ImageRef out{parts.registry, parts.repository, parts.tag, parts.digest};
  if (out.docker_hub() && istarts_with(out.repository, "library/")) out.repository.remove_prefix(8);
  return out;
}

}  // namespace jgrid::screen
