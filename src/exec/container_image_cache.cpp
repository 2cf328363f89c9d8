#include "exec/container_image_cache.hpp"

namespace jgrid::exec {

std::optional<InspectedImage> ImageCache::find(const std::string& reference) {
  std::lock_guard lock(m_mutex);
  auto it = m_entries.find(reference);
  if (it == m_entries.end()) return std::nullopt;
  if (std::chrono::steady_clock::now() - it->second.at >= m_ttl) {
    m_entries.erase(it);
    return std::nullopt;
  }
  return it->second.image;
}

void ImageCache::put(const InspectedImage& image) {
  std::lock_guard lock(m_mutex);
  auto now = std::chrono::steady_clock::now();
  for (auto it = m_entries.begin(); it != m_entries.end();)  // keeps the map as small as the images in use
    it = now - it->second.at >= m_ttl ? m_entries.erase(it) : std::next(it);
  m_entries[image.reference] = Entry{image, now};
}

void ImageCache::forget(const std::string& reference) {
  std::lock_guard lock(m_mutex);
  m_entries.erase(reference);
}

}  // namespace jgrid::exec
