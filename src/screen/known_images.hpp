#pragma once
// Well-known public image families whose default build is CUDA although their
// names often do not say so, each with the source that shows it and the
// project's ROCm build. The data lives in known_images_data.cpp (one entry
// per family, with sources); this header is the matcher's contract.
#include <string_view>
#include <vector>

#include "screen/tokens.hpp"

namespace jgrid::screen {

struct KnownImageFamily {
  std::string_view family;  // display name: "vLLM"
  // Normalised reference patterns of the CUDA builds: REGISTRY/REPOSITORY
  // with an optional :TAGGLOB ('*' matches any run, case-insensitive); no tag
  // part = every tag; a repository ending in "/*" = every repository under it.
  // Docker Hub is docker.io, its official images docker.io/library/NAME.
  // A pattern starting with '!' excludes what it matches (other builds
  // published under the same name: "!ghcr.io/org/app:*-cpu").
  std::vector<std::string_view> cuda_patterns;
  std::string_view cuda_source;  // shows the default build is CUDA
  std::string_view rocm_image;   // the ROCm counterpart to name in a fix; empty when none
  std::string_view rocm_source;  // where the ROCm build lives; empty when none
};

const std::vector<KnownImageFamily>& known_image_families();

// The family whose CUDA patterns match `ref`, or nullptr. The caller checks
// ROCm evidence first: a ROCm tag of a listed repository is the ROCm build.
const KnownImageFamily* find_known_cuda_image(const ImageRef& ref);

// True when `pattern` (syntax above) matches `ref` once normalised.
bool matches_image_pattern(std::string_view pattern, const ImageRef& ref);

}  // namespace jgrid::screen
