#pragma once
// OCI image references, by the grammar of the distribution spec as docker
// reads it:
//   [host[:port]/]component[/component…][:tag][@sha256:<64 hex digits>]
// The first component names a registry only when it has a '.' or a ':' or is
// "localhost"; otherwise the image is on Docker Hub. This is the one reader
// of references outside the registry client: the submit checks them here and
// screening splits them here. Pure and thread-safe.
#include <cstddef>
#include <string>
#include <string_view>

#include "jgrid/util/result.hpp"

namespace jgrid::model {

inline constexpr std::size_t k_max_image_bytes = 4096;       // the whole reference
inline constexpr std::size_t k_max_image_name_chars = 255;   // registry and repository, as the spec has it
inline constexpr std::size_t k_max_image_tag_chars = 128;

// Views into one reference; a part not given is empty.
struct ImageRefParts {
  std::string_view registry;    // "ghcr.io", "127.0.0.1:5000", "localhost"; "" for Docker Hub short names
  std::string_view repository;  // "acme/pytorch-rocm", "ubuntu", "library/ubuntu"
  std::string_view tag;         // without the ':'
  std::string_view digest;      // "sha256:…", without the '@'
  bool has_tag = false;         // a ':' was there (the tag may still be empty)
  bool has_digest = false;      // an '@' was there
};

// Splits `ref` without checking it: '@' starts the digest, then the registry
// (rule above), then a ':' after the last '/' starts the tag.
ImageRefParts split_image_ref(std::string_view ref);

// Ok when `ref` follows the grammar above and its limits. Otherwise
// INVALID_REQUEST naming `field` and the part that is wrong, e.g.
// "image: tag 'x!' is not a valid tag: letters, digits, '_', '.', '-', at
// most 128, not starting with '.' or '-'", details {field, part} (part is
// "registry", "repository", "tag", "digest" or "reference"). Upper-case
// letters in the repository are refused as docker refuses them, with the
// lower-case spelling as the fix.
Status check_image_ref(std::string_view ref, const std::string& field);

}  // namespace jgrid::model
