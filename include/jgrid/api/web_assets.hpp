#pragma once
#include <cstddef>

namespace jgrid::api {

// One dashboard file embedded at build time. `path` starts with '/', e.g.
// "/index.html"; `bytes` is not NUL-terminated text (size is authoritative).
struct WebAsset {
  const char* path;
  const unsigned char* bytes;
  std::size_t size;
};

// The embedded files, terminated by an entry whose path is nullptr.
// Static storage; thread-safe to read.
const WebAsset* web_assets();

}  // namespace jgrid::api
