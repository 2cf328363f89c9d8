#pragma once
// Image metadata found outside the fleet file and this machine: the seam
// between the engine, which screens with it, and the registry client (in
// the api module, which owns HTTP: jgrid/api/registry_lookup.hpp).
// Implementations run lookups on their own threads: a caller waits at most
// the bound it gives, and no lock is held while a request is on the wire, so
// a slow registry never blocks other callers.
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "jgrid/exec/fleet.hpp"

namespace jgrid::exec {

// What a lookup came to.
struct ImageLookupResult {
  enum class State {
    found,    // image holds the labels, env and digest; image.source = "registry"
    absent,   // the registry answered: no such image (or no access to it)
    failed,   // unreachable, refused, or answered something that is not an image
    pending,  // still fetching when the caller's bound ran out
  };
  State state = State::failed;
  ImageInfo image;
  std::string note;  // why, for absent/failed/pending: "127.0.0.1:5000: connection refused"
};

const char* to_string(ImageLookupResult::State state);

class ImageLookup {
 public:
  virtual ~ImageLookup() = default;
  // The metadata of `ref`: from the cache when fresh, else fetched, waiting
  // at most `bound`. When the result is pending, `on_done` (if set) runs
  // once on a lookup thread after the fetch ends, and a later lookup() of the
  // same reference answers from what it found. Concurrent lookups of one
  // reference share one fetch.
  virtual ImageLookupResult lookup(const std::string& ref, std::chrono::milliseconds bound,
                                   std::function<void()> on_done = {}) = 0;
};

}  // namespace jgrid::exec
