#pragma once
// Recently inspected images, so that jobs started back to back on the same
// image run one `image inspect` between them instead of one each. An entry
// is kept for a short time only: a tag moved meanwhile (`podman tag`, a new
// `load`) is seen by the next job after that at the latest. Thread-safe.
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "jgrid/exec/container_executor.hpp"

namespace jgrid::exec {

class ImageCache {
 public:
  static constexpr std::chrono::seconds k_default_ttl{15};
  explicit ImageCache(std::chrono::steady_clock::duration ttl = k_default_ttl) : m_ttl(ttl) {}

  // The image inspected under `reference` less than the ttl ago.
  std::optional<InspectedImage> find(const std::string& reference);
  void put(const InspectedImage& image);
  // After a run that could not use the image: the next job inspects again.
  void forget(const std::string& reference);

 private:
  struct Entry {
    InspectedImage image;
    std::chrono::steady_clock::time_point at;
  };
  const std::chrono::steady_clock::duration m_ttl;
  std::mutex m_mutex;
  std::map<std::string, Entry> m_entries;  // by reference as asked
};

}  // namespace jgrid::exec
