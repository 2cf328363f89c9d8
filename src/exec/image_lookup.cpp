#include "jgrid/exec/image_lookup.hpp"

namespace jgrid::exec {

const char* to_string(ImageLookupResult::State state) {
  using State = ImageLookupResult::State;
  switch (state) {
    case State::found: return "found";
    case State::absent: return "absent";
    case State::failed: return "failed";
    case State::pending: return "pending";
  }
  return "failed";
}

}  // namespace jgrid::exec
