#include "api/body_cache.hpp"

namespace jgrid::api {

std::optional<std::string> BodyCache::find(std::uint64_t version, const std::string& key) const {
  std::lock_guard lock(m_mutex);
  if (version != m_version) return std::nullopt;
  auto it = m_bodies.find(key);
  return it == m_bodies.end() ? std::nullopt : std::optional<std::string>(it->second);
}

void BodyCache::put(std::uint64_t version, const std::string& key, std::string body) {
  std::lock_guard lock(m_mutex);
  if (version < m_version) return;  // built from an older read
  if (version != m_version || m_bodies.size() >= k_max_entries) {
    m_bodies.clear();
    m_version = version;
  }
  m_bodies[key] = std::move(body);
}

}  // namespace jgrid::api
