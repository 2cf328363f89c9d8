#include <array>

#include "screen/known_images.hpp"
#include "screen/signals.hpp"

namespace jgrid::screen {

namespace {

// Projects whose `gpu` tags are CUDA builds (their ROCm builds live elsewhere,
// e.g. rocm/tensorflow).
constexpr std::array<std::string_view, 4> k_cuda_gpu_tag_projects = {"tensorflow/tensorflow", "paddlepaddle/paddle",
                                                                     "mxnet/python", "apache/mxnet"};

bool has_suffix_digits(std::string_view token, std::string_view prefix) {
  return istarts_with(token, prefix) && (token.size() == prefix.size() || all_digits(token.substr(prefix.size())));
}

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

Evidence image_evidence(std::string found) { return Evidence{"image", std::move(found), {}}; }

Evidence known_family_evidence(const KnownImageFamily& family) {
  std::string found(family.family);
  found += "'s published image is a CUDA build (" + std::string(family.cuda_source) + ")";
  std::string fix = family.rocm_image.empty()
                        ? "no ROCm build of " + std::string(family.family) +
                              " is published: build the image from a ROCm base (e.g. rocm/dev-ubuntu-22.04)"
                        : "use " + std::string(family.rocm_image) + ", the ROCm build of " + std::string(family.family) +
                              " (" + std::string(family.rocm_source) + ")";
  return Evidence{"image", std::move(found), std::move(fix)};
}

// The first token of `part` accepted by `accept`, or empty.
template <typename F>
std::string_view first_token(std::string_view part, F accept) {
  std::string_view hit;
  any_image_token(part, [&](std::string_view token) {
    if (accept(token)) hit = token;
    return !hit.empty();
  });
  return hit;
}

bool is_cuda_gpu_tag_project(const ImageRef& ref) {
  if (!ref.docker_hub()) return false;
  for (auto project : k_cuda_gpu_tag_projects)
    if (iequals(ref.repository, project)) return true;
  return false;
}

bool is_gpu_token(std::string_view token) { return iequals(token, "gpu"); }

}  // namespace

bool is_cuda_token(std::string_view token) {
  if (has_suffix_digits(token, "cuda") || has_suffix_digits(token, "cudnn")) return true;
  return token.size() == 5 && istarts_with(token, "cu") && all_digits(token.substr(2));
}

bool is_rocm_token(std::string_view token) { return has_suffix_digits(token, "rocm"); }

namespace {

Evidence cuda_name_signal(const ImageRef& ref) {
  if (iequals(ref.registry, "nvcr.io")) return image_evidence("registry nvcr.io (NVIDIA NGC)");
  if (ref.docker_hub() && istarts_with(ref.repository, "nvidia/"))
    return image_evidence("repository " + std::string(ref.repository));
  if (auto token = first_token(ref.repository, is_cuda_token); !token.empty())
    return image_evidence("repository token " + quoted(token));
  if (auto token = first_token(ref.tag, is_cuda_token); !token.empty())
    return image_evidence("tag token " + quoted(token));
  if (is_cuda_gpu_tag_project(ref) && !first_token(ref.tag, is_gpu_token).empty())
    return image_evidence(std::string(ref.repository) + " with a gpu tag is a CUDA build");
  return {};
}

}  // namespace

Evidence image_cuda_name(const ImageRef& ref) {
  Evidence signal = cuda_name_signal(ref);
  if (image_rocm_name(ref)) return signal;  // a ROCm tag of a listed family is its ROCm build
  const KnownImageFamily* family = find_known_cuda_image(ref);
  if (!family) return signal;
  Evidence known = known_family_evidence(*family);
  if (!signal) return known;
  signal.fix = std::move(known.fix);  // the name says CUDA already; the table knows the ROCm build
  return signal;
}

Evidence image_rocm_name(const ImageRef& ref) {
  if (auto token = first_token(ref.repository, is_rocm_token); !token.empty())
    return image_evidence("repository token " + quoted(token));
  if (auto token = first_token(ref.tag, is_rocm_token); !token.empty())
    return image_evidence("tag token " + quoted(token));
  return {};
}

namespace {

Evidence label_evidence(const std::string& key, const std::string& value) {
  return Evidence{"image.labels." + key, "label " + key + "=" + value, {}};
}

Evidence env_evidence(const std::string& key, const std::string& value) {
  return Evidence{"image.env." + key, "env " + key + "=" + value, {}};
}

bool is_runtime_label(const std::string& key, const std::string& value, std::string_view runtime) {
  return iequals(key, "io.junglegrid.runtime") && iequals(value, runtime);
}

bool is_amd_vendor_label(const std::string& key, const std::string& value) {
  return iequals(key, "org.opencontainers.image.vendor") &&
         (iequals(value, "amd") || istarts_with(value, "advanced micro devices"));
}

}  // namespace

Evidence image_cuda_metadata(const ImageMetadata& image) {
  for (const auto& [key, value] : image.labels)
    if (istarts_with(key, "com.nvidia.") || is_runtime_label(key, value, "cuda")) return label_evidence(key, value);
  for (const auto& [key, value] : image.env)
    if (key == "NVIDIA_REQUIRE_CUDA" || key == "CUDA_VERSION" || key.starts_with("NV_CUDA_"))
      return env_evidence(key, value);
  return {};
}

Evidence image_rocm_metadata(const ImageMetadata& image) {
  for (const auto& [key, value] : image.labels)
    if (is_runtime_label(key, value, "rocm") || istarts_with(key, "com.amd.") || is_amd_vendor_label(key, value))
      return label_evidence(key, value);
  for (const auto& [key, value] : image.env)
    if (key == "ROCM_VERSION" || key == "ROCM_PATH" || key == "HIP_PATH") return env_evidence(key, value);
  return {};
}

}  // namespace jgrid::screen
